import { writeFileSync } from 'node:fs';
import { encodeWavPcm16, wavToMono16k } from '@parla/speech';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshots } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import type { TestServer } from './support/server.js';
import {
  expectSpoken,
  PHRASES,
  pressToTalk,
  signInTrained,
  watchNotUnderstood,
} from './support/speak-page.js';
import { fakeMicrophone, phraseWav } from './support/speech.js';

// A person who presses to talk and takes their time before speaking, in a room whose own
// hiss is louder than the level the recogniser assumes before it has heard the room. The
// hiss must not pass for something they said (docs/decisions/0077).

const SAID = 'thank you very much';
/** Seconds from the press to the phrase: longer than the recogniser's first noise window (2 s). */
const WAIT = 3.5;
/** The room's hiss, root mean square: -45 dB under full scale, a laptop microphone in a quiet room. */
const HISS = 10 ** (-45 / 20);

async function phraseAfterWaiting(): Promise<Uint8Array> {
  const phrase = wavToMono16k(
    await phraseWav(SAID, { wordsPerMinute: 150, silenceBefore: 0, silenceAfter: 0.05 }),
  );
  const audio = new Float32Array(Math.round((WAIT + 4) * 16_000) + phrase.length);
  let seed = 4_242;
  // Uniform noise in [-a, a] has a root mean square of a over the square root of 3.
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  for (let i = 0; i < audio.length; i += 1) audio[i] = random() * HISS * Math.sqrt(3);
  phrase.forEach((v, j) => {
    const at = WAIT * 16_000 + j;
    audio[at] = (audio[at] as number) + v;
  });
  return encodeWavPcm16(audio, 16_000);
}

const microphoneWav = fakeMicrophone('slow-start', async (file) =>
  writeFileSync(file, await phraseAfterWaiting()),
);

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness), { fakeMicrophoneWav: microphoneWav });

describe('a press to talk and a phrase seconds later, in a room that hisses', () => {
  it('speak: the phrase is understood, and nothing is said not to be understood before it', async () => {
    expect(PHRASES).toContain(SAID);
    await signInTrained(server, context);
    await page.goto('/speak');
    const notUnderstood = await watchNotUnderstood(page);
    await pressToTalk(page);
    await expectSpoken(page, SAID);
    expect(await notUnderstood()).toEqual([]);
    await saveScreenshots(page, 'speak-after-a-slow-start');
  });
});
