import { writeFileSync } from 'node:fs';
import { encodeWavPcm16, wavToMono16k } from '@parla/speech';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshots, seriousViolations } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import type { TestServer } from './support/server.js';
import { seedSession } from './support/session.js';
import { fakeMicrophone, phraseWav } from './support/speech.js';
import { dismissProfileUpdated, trainVoiceProfile } from './support/training.js';

// A person speaking over a television that is nearly as loud as they are: the app says the
// room is too loud for it to understand them well (docs/decisions/0076).

const PHRASES = ['good morning', 'thank you very much', 'I would like a cup of tea'];

/** The television: another voice reading on without pauses, 20 s of it. */
const TELEVISION = [
  'and now the weather for the rest of the week',
  'rain will spread from the west during the afternoon',
  'with temperatures a little below the average for the time of year',
  'turning brighter on thursday with a few showers in the north',
  'the weekend looks dry and settled for most of the country',
  'and that is all from us for now, good night',
];

/** The person's phrases over the television, 10 dB louder than it, at these seconds. */
const SAID: [string, number][] = [
  ['good morning', 4],
  ['thank you very much', 9],
  ['I would like a cup of tea', 14],
];

async function speechOverTelevision(): Promise<Uint8Array> {
  const samples = async (text: string, voiceId: string, wordsPerMinute: number) =>
    wavToMono16k(await phraseWav(text, { voiceId, wordsPerMinute, silenceBefore: 0, silenceAfter: 0.05 }));
  const talk = await Promise.all(TELEVISION.map((line) => samples(line, 'en-GB-female', 190)));
  const audio = new Float32Array(20 * 16_000);
  for (let at = 0, i = 0; at < audio.length; i += 1) {
    const line = talk[i % talk.length] as Float32Array;
    audio.set(line.subarray(0, audio.length - at), at);
    at += line.length;
  }
  const mine = await Promise.all(SAID.map(([text]) => samples(text, 'en-US-male', 150)));
  const rms = (x: Float32Array) => Math.sqrt(x.reduce((sum, v) => sum + v * v, 0) / x.length);
  const television = 1 / 10 ** (10 / 20) / (rms(audio) / rms(mine[0] as Float32Array));
  for (let i = 0; i < audio.length; i += 1) audio[i] = (audio[i] as number) * television;
  SAID.forEach(([, second], k) =>
    (mine[k] as Float32Array).forEach((v, j) => {
      audio[second * 16_000 + j] = (audio[second * 16_000 + j] as number) + v;
    }),
  );
  return encodeWavPcm16(audio, 16_000);
}

const microphoneWav = fakeMicrophone('noisy-room', async (file) =>
  writeFileSync(file, await speechOverTelevision()),
);

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness), { fakeMicrophoneWav: microphoneWav });

/** A new person with a trained profile, signed in; `state` goes into the app's storage. */
async function signInTrained(state: Record<string, unknown> = {}) {
  const user = await server.signUp();
  const version = await trainVoiceProfile(server, user, PHRASES);
  await dismissProfileUpdated(server, user);
  await seedSession(context, user, {
    notificationStatus: { acoustic_model_version: String(version) },
    ...state,
  });
}

async function listenHandsFree(ready: RegExp) {
  await page.getByTestId('recognition-status').getByText(ready).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Hands-free' }).click();
  await page.getByRole('button', { name: 'Start listening' }).click();
}

describe('a room that talks too loud', () => {
  it('speak: the page says the room is too loud while it is, and stops saying so with the microphone', async () => {
    await signInTrained();
    await page.goto('/speak');
    await listenHandsFree(/Ready to listen/);

    const notice = page.getByTestId('room-too-loud');
    await notice.waitFor({ timeout: 40_000 });
    expect(await notice.textContent()).toContain('too noisy here for Parla to understand you well');
    expect(await notice.getAttribute('role')).toBe('status');
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshots(page, 'speak-room-too-loud', async () => {
      expect(await seriousViolations(page)).toEqual([]);
    });

    await page.getByRole('button', { name: 'Stop listening' }).click();
    await notice.waitFor({ state: 'hidden' });
  });

  it('dictate, recognised on this device: the worker says it as the server does', async () => {
    await signInTrained({ recognitionEngine: 'local' });
    await page.goto('/dictate');
    await listenHandsFree(/recognised on this device/);
    await page.getByTestId('room-too-loud').waitFor({ timeout: 40_000 });
    await saveScreenshots(page, 'dictate-room-too-loud');
  });
});
