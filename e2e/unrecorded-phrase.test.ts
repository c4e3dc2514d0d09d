import { writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshots, seriousViolations } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import type { TestServer, TestUser } from './support/server.js';
import { seedSession } from './support/session.js';
import { expectSpoken, pressToTalk } from './support/speak-page.js';
import { fakeMicrophone, fsddDigitWav } from './support/speech.js';
import { dismissProfileUpdated, trainingTakes, trainVoiceProfile } from './support/training.js';

// A phrase the person has added but not recorded yet, understood by the general recogniser
// (docs/decisions/0102): shown and spoken like any other, with a word on how to teach it.
// A real voice (FSDD's jackson): the general recogniser does not know eSpeak NG's well
// enough to be trusted with it.

const RECORDED = { one: 1, four: 4, seven: 7 } as const;
const NOT_RECORDED = 'three';

/** One of jackson's takes of a digit, with silence around it, as 16 kHz WAV. */
const digitWav = (digit: number, take: number, before: number, after: number) =>
  fsddDigitWav('jackson', digit, take, before, after);

const microphoneWav = fakeMicrophone('unrecorded-phrase', (file) => {
  writeFileSync(file, digitWav(3, 10, 1, 2));
  return Promise.resolve();
});

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness), { fakeMicrophoneWav: microphoneWav });

async function api<T>(user: TestUser, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${user.session.access_token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * A new person whose profile holds "one", "four" and "seven", who has added "three" without
 * recording it, signed in; `state` goes into the app's storage. Returns the phrase's id.
 */
async function signInWithUnrecordedPhrase(state: Record<string, unknown> = {}) {
  const user = await server.signUp();
  const version = await trainVoiceProfile(server, user, Object.keys(RECORDED), (text, take) =>
    Promise.resolve(digitWav(RECORDED[text as keyof typeof RECORDED], take, 0.5, 0.5)),
  );
  await dismissProfileUpdated(server, user);
  const info = await api<{ models: { modelmeta: { generic_knows?: number; voice_knows?: number } }[] }>(
    user,
    '/app/modelsInfo',
  );
  // The general recogniser names this voice's recorded takes, as it is and adapted to the
  // voice (decision 0128): it may answer for the rest.
  expect(info.models[0]?.modelmeta.generic_knows).toBeGreaterThanOrEqual(0.6);
  expect(info.models[0]?.modelmeta.voice_knows).toBeGreaterThanOrEqual(0.6);
  const phrase = await api<{ id: string }>(user, '/app/casr/customPhrase', {
    text: NOT_RECORDED,
    scenario_id: 'conversation',
  });
  await seedSession(context, user, {
    notificationStatus: { acoustic_model_version: String(version) },
    ...state,
  });
  return { user, phraseId: phrase.id };
}

describe('a phrase not recorded yet', () => {
  it('speak: is understood by the general recogniser, and confirming it teaches the profile', async () => {
    const { user, phraseId } = await signInWithUnrecordedPhrase();
    await page.goto('/speak');
    await pressToTalk(page);
    await expectSpoken(page, NOT_RECORDED);
    const note = page.getByTestId('not-recorded-yet');
    await note.waitFor();
    expect(await note.textContent()).toMatch(/not recorded this phrase yet/);
    await saveScreenshots(page, 'speak-not-recorded-yet', async () => {
      expect(await seriousViolations(page)).toEqual([]);
    });

    // Saying it was right makes the utterance the phrase's first take.
    await page.getByRole('button', { name: 'That’s right' }).click();
    await page.getByRole('status').filter({ hasText: 'your voice profile learns from this' }).waitFor();
    await expect
      .poll(async () =>
        (await trainingTakes(server, user)).filter((take) => take.phraseId === phraseId).map((t) => t.source),
      )
      .toEqual(['confirmed']);
  });

  it('speak, recognised on this device: the general recogniser runs in the browser too, adapted to the voice', async () => {
    // Its acoustic model is fetched once the profile is ready, with the means adapted to the
    // voice; the last file it reads is the noise dictionary.
    const voiceLoaded = page.waitForResponse((response) => response.url().endsWith('/voice.bin'), {
      timeout: 60_000,
    });
    const modelLoaded = page.waitForResponse((response) => response.url().endsWith('/noisedict.txt'), {
      timeout: 60_000,
    });
    // Which means files the page and its worker fetch: the model's own, or one the worker
    // made (fetched from a blob: address, as no other is; what is spoken plays from others).
    const meansFetched: string[] = [];
    // Taught the words of the person's phrases (from the server), it never reads its dictionary.
    let dictionaryFetched = false;
    page.on('request', (request) => {
      const url = request.url();
      if (url.startsWith('blob:') && request.resourceType() === 'fetch') meansFetched.push('made');
      else if (url.endsWith('/en-us/means')) meansFetched.push('own');
      else if (url.endsWith('/en-us/dict.txt')) dictionaryFetched = true;
    });
    await signInWithUnrecordedPhrase({ recognitionEngine: 'local' });
    await page.goto('/speak');
    await page.getByText('Ready to listen (recognised on this device)').waitFor({ timeout: 30_000 });
    expect((await voiceLoaded).status()).toBe(200);
    expect((await modelLoaded).status()).toBe(200);
    // The engine is set up from the files as they arrive: a first press may come before it is.
    let understood = false;
    for (let press = 0; press < 2 && !understood; press++) {
      await pressToTalk(page);
      understood = await expectSpoken(page, NOT_RECORDED, 10_000).then(
        () => true,
        () => false,
      );
    }
    // A third press is the last: if it fails too, the error says what the page showed.
    if (!understood) {
      await pressToTalk(page);
      await expectSpoken(page, NOT_RECORDED, 10_000);
    }
    await page.getByTestId('not-recorded-yet').waitFor();
    // The worker made the adapted means from the model's own, and the engine read them from
    // the address it made for them. Had the page's policy refused that, the engine would have
    // fetched the model's own means again and answered with those.
    expect(meansFetched).toEqual(['own', 'made']);
    expect(dictionaryFetched).toBe(false);
  });
});
