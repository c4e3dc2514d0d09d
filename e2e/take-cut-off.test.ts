import { writeFileSync } from 'node:fs';
import { encodeWavPcm16, wavToMono16k } from '@parla/speech';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshots } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import type { TestServer, TestUser } from './support/server.js';
import { seedSession } from './support/session.js';
import { fakeMicrophone, phraseWav } from './support/speech.js';

// Someone who is still speaking when their take starts and stops: the recorder says the
// phrase may be cut off and asks for it again; pressed, it keeps the take all the same, and
// hands-free it listens again by itself once (docs/decisions/0139).

const PHRASE = 'Good night';

/**
 * Speech that never pauses: "la la la…" said quickly, its silences trimmed, back to back.
 * Its syllables come every tenth of a second or so, each as loud as the last, so wherever a
 * take starts and stops, it does so in a syllable as loud as the rest (in a simulation of
 * 600 takes of 1.4-5.4 s from random points, every one was cut at both ends).
 */
async function speechWithoutPause(): Promise<Uint8Array> {
  const spoken = wavToMono16k(
    await phraseWav('la la la la la la la la la la la la', {
      wordsPerMinute: 400,
      silenceBefore: 0,
      silenceAfter: 0,
    }),
  );
  const loud = spoken.reduce((peak, x) => Math.max(peak, Math.abs(x)), 0) * 0.05;
  const first = spoken.findIndex((x) => Math.abs(x) > loud);
  const last = spoken.findLastIndex((x) => Math.abs(x) > loud);
  const syllables = spoken.subarray(first, last + 1);
  const audio = new Float32Array(12 * 16_000);
  for (let at = 0; at < audio.length; at += syllables.length)
    audio.set(syllables.subarray(0, Math.min(syllables.length, audio.length - at)), at);
  return encodeWavPcm16(audio, 16_000);
}

const microphoneWav = fakeMicrophone('take-cut-off', async (file) =>
  writeFileSync(file, await speechWithoutPause()),
);

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness), { fakeMicrophoneWav: microphoneWav });

/** A new person with one phrase of their own, on its recording screen. */
async function recordingScreen(): Promise<TestUser> {
  const user = await server.signUp();
  await seedSession(context, user);
  const response = await fetch(`${server.url}/app/casr/customPhrase`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.session.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: PHRASE, scenario_id: 'conversation' }),
  });
  expect(response.status).toBe(201);
  await page.goto('/record/training/conversation');
  await page.getByLabel(`Say: ${PHRASE}`).waitFor();
  return user;
}

const takesOf = (user: TestUser) =>
  server.db.selectFrom('recordings').select('id').where('user_id', '=', user.session.user.id).execute();

const CUT_OFF = 'The phrase may be cut off at the start and at the end.';

describe('a take cut off at its ends', () => {
  it('pressed: says the phrase may be cut off, and keeps the take when told to', async () => {
    const user = await recordingScreen();
    await page.getByText('take 1 of 3').waitFor();
    await page.getByRole('button', { name: 'Record', exact: true }).click();
    await page.getByRole('meter', { name: 'Microphone level' }).waitFor();
    await page.waitForTimeout(2000);
    await page.getByRole('button', { name: 'Stop' }).click();
    const notice = page.getByRole('alert').filter({ hasText: CUT_OFF });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(
      'Please record it again, with a moment of quiet before and after it',
    );
    await saveScreenshots(page, 'record-take-cut-off');

    // Recorded again, it is still cut off; the person keeps it.
    await page.getByRole('button', { name: 'Record again' }).click();
    await page.getByRole('meter', { name: 'Microphone level' }).waitFor();
    await page.waitForTimeout(1500);
    await page.getByRole('button', { name: 'Stop' }).click();
    await notice.waitFor();
    await page.getByRole('button', { name: 'Keep and go on' }).click();
    await page.getByText('take 2 of 3').waitFor();
    await expect.poll(async () => (await takesOf(user)).length, { timeout: 15_000 }).toBe(1);
  }, 60_000);

  it('hands-free: listens again by itself once, then keeps the next take', async () => {
    const user = await recordingScreen();
    await page.getByText('take 1 of 3').waitFor();
    await page.getByLabel('Hands-free: start and stop by my voice').check();
    // Speech is there from the first moment: whatever ends the take, its start is cut off.
    await page.getByText('Listening again in a moment.').waitFor({ timeout: 20_000 });
    expect(
      await page
        .getByRole('alert')
        .filter({ hasText: /may be cut off/ })
        .isVisible(),
    ).toBe(true);
    await page.getByText('Keeping this take in a moment.').waitFor({ timeout: 20_000 });
    await page.getByText('take 2 of 3').waitFor({ timeout: 10_000 });
    // Only the second take of the two was kept.
    await expect.poll(async () => (await takesOf(user)).length, { timeout: 15_000 }).toBe(1);
  }, 90_000);
});
