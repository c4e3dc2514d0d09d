import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshots, seriousViolations } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import { endTake } from './support/record-page.js';
import type { TestServer } from './support/server.js';
import { seedSession } from './support/session.js';
import { fakeMicrophone, writePhraseWav } from './support/speech.js';

// A new person's voice profile, made through the real recording screens: Chromium's fake
// microphone plays a spoken phrase in a loop, every take is recorded, kept and uploaded,
// the server trains, and the profile-updated dialog sends the person to their mode page.

const microphoneWav = fakeMicrophone('recording', (file) =>
  writePhraseWav(file, 'Yes please', { silenceBefore: 1, silenceAfter: 1.5 }),
);

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness), { fakeMicrophoneWav: microphoneWav });

/** A new person signed in, with one phrase of a scenario to record: its address and words. */
async function personWithOnePhrase() {
  const user = await server.signUp();
  await seedSession(context, user);
  const scenario = 'basic_needs';
  await fetch(`${server.url}/app/scenarios/activate/${scenario}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${user.session.access_token}` },
  });
  const dataset = (await (
    await fetch(`${server.url}/app/casr/scenario_train_set/${scenario}/dataset`, {
      headers: { authorization: `Bearer ${user.session.access_token}` },
    })
  ).json()) as { phrases: { id: string; text: string }[] };
  const phrase = dataset.phrases[0];
  if (!phrase) throw new Error('no dataset phrase');
  await fetch(`${server.url}/app/casr/datasetPhrase`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.session.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: phrase.id, scenario_id: scenario }),
  });
  const stored = () =>
    server.db.selectFrom('recordings').select('id').where('user_id', '=', user.session.user.id).execute();
  return { recordAt: `/record/training/${scenario}`, words: phrase.text, stored };
}

/** Records one take of the phrase on screen, up to its "Keep and go on". */
async function recordOneTake(recordAt: string, words: string) {
  await page.goto(recordAt);
  await page.getByLabel(`Say: ${words}`).waitFor();
  await page.getByRole('button', { name: 'Record', exact: true }).click();
  await page.getByRole('meter', { name: 'Microphone level' }).waitFor();
  await endTake(page);
}

describe('recording a voice profile in the browser', () => {
  it('records every take through the recorder, builds the profile and opens the mode page', async () => {
    const user = await server.signUp();
    await seedSession(context, user, { recognitionMode: 'speak' });

    // The active scenario comes with everyday phrases: record the first two of them.
    await page.goto('/record');
    // The first page of a file's browser (a second or more on a busy machine: a poll's 1 s was too short).
    await page.getByRole('heading', { name: 'Scenarios' }).waitFor({ timeout: 30_000 });
    await page.getByText(/Your voice profile starts with your recordings/).waitFor();
    // Each scenario says how far along it is; one with none of the person's phrases says so.
    expect(await page.getByRole('button', { name: /^Basic needs/ }).textContent()).toContain(
      '0 of 10 phrases recorded',
    );
    expect(await page.getByRole('button', { name: /^Feelings/ }).textContent()).toContain(
      'No phrases added yet',
    );
    const phraseList = page.getByRole('list', { name: /^Your phrases: / });
    const recordLinks = phraseList.getByRole('link', { name: /^Record “/ });
    const firstTwo = [
      (await recordLinks.nth(0).getAttribute('aria-label')) ?? '',
      (await recordLinks.nth(1).getAttribute('aria-label')) ?? '',
    ].map((label) => label.replace(/^Record “|”$/g, ''));
    await saveScreenshots(page, 'record-phrases');
    expect(await seriousViolations(page)).toEqual([]);

    for (const [index, phrase] of firstTwo.entries()) {
      await page.getByRole('link', { name: `Record “${phrase}”` }).click();
      await page.getByRole('heading', { name: 'Record your phrases' }).waitFor();
      for (let take = 1; take <= 3; take += 1) {
        await page.getByText(`take ${take} of 3`).waitFor();
        expect(await page.getByLabel(`Say: ${phrase}`).isVisible()).toBe(true);
        await page.getByRole('button', { name: 'Record', exact: true }).click();
        await page.getByRole('meter', { name: 'Microphone level' }).waitFor();
        if (index === 0 && take === 1) await saveScreenshots(page, 'record-take-listening');
        await endTake(page);
        if (index === 0 && take === 1) {
          await saveScreenshots(page, 'record-take-recorded');
          expect(await seriousViolations(page)).toEqual([]);
        }
        await page.getByRole('button', { name: 'Keep and go on' }).click();
      }
      await page.getByRole('heading', { name: 'Every phrase is recorded' }).waitFor();
      if (index === 0) await page.getByRole('link', { name: 'Back to phrases' }).first().click();
    }

    // All six takes uploaded, the first profile trained: the dialog of spec section 4.
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ timeout: 30_000 });
    await saveScreenshots(page, 'record-profile-updated');
    await dialog.getByRole('button', { name: /^Use / }).click();
    // A navigation inside the app: the address changes without a page load.
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toBe('/speak');
    // The page remembers itself as the last tab once it renders, so wait for it.
    await page.getByRole('heading', { level: 1, name: 'Speak' }).waitFor();

    const takes = await server.db
      .selectFrom('recordings')
      .select(['duration_ms', 'kind'])
      .where('user_id', '=', user.session.user.id)
      .execute();
    expect(takes.filter((row) => row.kind === 'training')).toHaveLength(6);
    expect(takes.every((row) => row.duration_ms > 4000)).toBe(true);

    // The launcher now sends the person to their mode page, not to recording.
    await page.goto('/');
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toBe('/speak');
  }, 120_000);

  it('keeps a take recorded offline and sends it when the connection is back', async () => {
    const { recordAt, words, stored } = await personWithOnePhrase();
    await recordOneTake(recordAt, words);
    // The connection drops before the take is kept.
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Keep and go on' }).click();
    await page.getByText(/1 take is kept on this device/).waitFor();
    expect(await stored()).toHaveLength(0);

    // The tab is closed while offline; the take waits in IndexedDB, and the next visit sends it.
    await page.close();
    await context.setOffline(false);
    page = await context.newPage();
    await page.goto('/menu');
    await expect.poll(async () => (await stored()).length, { timeout: 15_000 }).toBe(1);
  }, 60_000);

  it('keeps a take once when the reply to its upload was lost on the way', async () => {
    const { recordAt, words, stored } = await personWithOnePhrase();
    await recordOneTake(recordAt, words);
    // The server gets the first upload; the browser never hears back, so the take waits.
    let lost = false;
    await page.route('**/app/casr/upload/training/**', async (route) => {
      if (lost) return route.continue();
      await route.fetch();
      lost = true;
      return route.abort('connectionreset');
    });
    await page.getByRole('button', { name: 'Keep and go on' }).click();
    await page.getByText(/1 take is kept on this device/).waitFor();
    expect(await stored()).toHaveLength(1);

    // The next visit sends it again: the server answers for the take it has, and keeps no other.
    const resent = page.waitForResponse((response) => response.url().includes('/app/casr/upload/training/'));
    await page.goto('/menu');
    expect((await resent).status()).toBe(201);
    expect(await stored()).toHaveLength(1);
  }, 60_000);
});
