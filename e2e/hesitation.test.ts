import { writeFileSync } from 'node:fs';
import { encodeWavPcm16, wavToMono16k } from '@parla/speech';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
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

// A person who stops mid-phrase for longer than the end-point silence: the phrase is
// understood once, whole, and the app never says it did not understand while they pause.

const SAID = 'thank you very much';
/**
 * Added to the silence the synthesiser leaves after "thank you" and before "very much":
 * about 0.6 s in all, longer than the profile's end-point silence (0.3 s, its takes have
 * no pauses) and within the time it waits for more (twice that).
 */
const HESITATION = 0.2;

/** "thank you", a pause, "very much": two syntheses with silence between, as 16 kHz samples. */
async function hesitantPhrase(): Promise<Uint8Array> {
  const prosody = { wordsPerMinute: 150, pitch: 50 };
  const part = async (text: string, before: number, after: number) =>
    wavToMono16k(await phraseWav(text, { ...prosody, silenceBefore: before, silenceAfter: after }));
  const first = await part('thank you', 1, HESITATION);
  const second = await part('very much', 0, 3);
  const joined = new Float32Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return encodeWavPcm16(joined, 16_000);
}

const microphoneWav = fakeMicrophone('hesitation', async (file) =>
  writeFileSync(file, await hesitantPhrase()),
);

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness), { fakeMicrophoneWav: microphoneWav });

describe('a phrase said with a long pause in it', () => {
  it('is understood once, and no "not sure" is shown while the person pauses', async () => {
    expect(PHRASES).toContain(SAID);
    await signInTrained(server, context);
    await page.goto('/speak');
    // Everything the page ever says it did not understand, from the first moment on.
    const notUnderstood = await watchNotUnderstood(page);
    await pressToTalk(page);
    await expectSpoken(page, SAID);
    expect(await notUnderstood()).toEqual([]);
  });
});
