import { writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshots } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import { phrasesOver } from './support/noisy-room.js';
import type { TestServer } from './support/server.js';
import { listenHandsFree, signInTrained } from './support/speak-page.js';
import { fakeMicrophone } from './support/speech.js';

// A person speaking softly over a fan nearly as loud as they are (2 dB under them): the app
// asks them to speak up or come closer (docs/decisions/0076).

const microphoneWav = fakeMicrophone('noisy-fan', async (file) =>
  writeFileSync(file, await phrasesOver('fan')),
);

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness), { fakeMicrophoneWav: microphoneWav });

describe('steady noise nearly as loud as the person', () => {
  it('speak: the page asks them to speak up or come closer', async () => {
    await signInTrained(server, context);
    await page.goto('/speak');
    await listenHandsFree(page, /Ready to listen/);
    const notice = page.getByTestId('room-too-loud');
    await notice.waitFor({ timeout: 60_000 });
    // What it blames is the stream's judgement of the room (unit-tested in streaming.test.ts):
    // a fan under soft speech once read as voices in CI, so the page is held to the notice
    // and its advice, which both causes share.
    const text = await notice.textContent();
    expect(text).toContain('nearly as loud as you');
    expect(text).toContain('come closer to the microphone');
    await saveScreenshots(page, 'speak-noise-too-loud');
  }, 110_000);
});
