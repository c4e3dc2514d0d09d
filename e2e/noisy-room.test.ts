import { writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshots, seriousViolations } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import { phrasesOver } from './support/noisy-room.js';
import type { TestServer } from './support/server.js';
import { listenHandsFree, signInTrained } from './support/speak-page.js';
import { fakeMicrophone } from './support/speech.js';

// A person speaking over a television that is nearly as loud as they are: the app says the
// room is too loud for it to understand them well (docs/decisions/0076).

const microphoneWav = fakeMicrophone('noisy-room', async (file) =>
  writeFileSync(file, await phrasesOver('television')),
);

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness), { fakeMicrophoneWav: microphoneWav });

describe('a room that talks too loud', () => {
  it('speak: the page says the room is too loud, while the app speaks and once the person stops listening', async () => {
    await signInTrained(server, context);
    await page.goto('/speak');
    await listenHandsFree(page, /Ready to listen/);

    const notice = page.getByTestId('room-too-loud');
    await notice.waitFor({ timeout: 40_000 });
    expect(await notice.textContent()).toContain('voices or a television are nearly as loud as you');
    expect(await notice.getAttribute('role')).toBe('status');
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshots(page, 'speak-room-too-loud', async () => {
      expect(await seriousViolations(page)).toEqual([]);
    });

    // The app says the next phrase aloud with the microphone muted: the room is as loud as before.
    const stopSpeaking = page.getByRole('button', { name: 'Stop speaking' });
    await stopSpeaking.waitFor({ timeout: 30_000 });
    await stopSpeaking.waitFor({ state: 'hidden', timeout: 15_000 });
    expect(await notice.isVisible()).toBe(true);

    // The room has not changed when they stop: press to talk stops after every phrase.
    await page.getByRole('button', { name: 'Stop listening' }).click();
    await page.getByText('Not listening').waitFor();
    expect(await notice.isVisible()).toBe(true);
  }, 110_000);

  it('dictate, recognised on this device: the worker says it as the server does', async () => {
    await signInTrained(server, context, { recognitionEngine: 'local' });
    await page.goto('/dictate');
    await listenHandsFree(page, /recognised on this device/);
    await page.getByTestId('room-too-loud').waitFor({ timeout: 40_000 });
    await saveScreenshots(page, 'dictate-room-too-loud');
  });
});
