import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshots } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import { endTake } from './support/record-page.js';
import type { TestServer } from './support/server.js';
import { seedSession } from './support/session.js';
import { expectSpoken, PHRASES, pressToTalk, signInTrained } from './support/speak-page.js';
import { fakeMicrophone, writePhraseWav } from './support/speech.js';
import { dismissProfileUpdated, trainVoiceProfile } from './support/training.js';

// A person whose stored voice profile was damaged (one bit of its file changed, as a failing
// disk or a bad copy would) opens the app: they are told it is being made again from their
// recordings, and once it is, they are understood. A take whose file was lost is asked for
// again, saying why (docs/decisions/0138).

const SAID = 'good morning';
const microphoneWav = fakeMicrophone('damaged-profile', (file) =>
  writePhraseWav(file, SAID, { silenceBefore: 1, silenceAfter: 3 }),
);

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness), { fakeMicrophoneWav: microphoneWav });

/** Changes one bit of the person's newest profile file; its version. */
async function damageNewestProfile(email: string): Promise<number> {
  const { storage_key, version } = await server.db
    .selectFrom('models')
    .innerJoin('users', 'users.id', 'models.user_id')
    .select(['models.storage_key', 'models.version'])
    .where('users.email', '=', email)
    .orderBy('models.version', 'desc')
    .executeTakeFirstOrThrow();
  const file = path.join(server.dataDir, 'blobs', storage_key);
  const bytes = await readFile(file);
  bytes[bytes.length - 20] = (bytes[bytes.length - 20] as number) ^ 0x10;
  await writeFile(file, bytes);
  return version;
}

/** Waits until the person's profile is at `version`. */
async function profileAt(email: string, version: number) {
  await expect
    .poll(
      async () =>
        (
          await server.db
            .selectFrom('models')
            .innerJoin('users', 'users.id', 'models.user_id')
            .select('models.version')
            .where('users.email', '=', email)
            .orderBy('models.version', 'desc')
            .executeTakeFirst()
        )?.version,
      { timeout: 60_000, interval: 250 },
    )
    .toBe(version);
}

describe('a voice profile whose file was damaged', () => {
  for (const engine of ['server', 'local'] as const) {
    it(`speak (${engine}): says it is being made again, then understands the person with the new one`, async () => {
      expect(PHRASES).toContain(SAID);
      // Someone who chose to speak: the app comes back to it after the notice of a new profile.
      const { email } = await signInTrained(server, context, {
        recognitionMode: 'speak',
        ...(engine === 'local' ? { recognitionEngine: 'local' } : {}),
      });
      const damaged = await damageNewestProfile(email);
      await page.goto('/speak');
      const status = page.getByTestId('recognition-status');
      await status.getByText('is being made again from your recordings').waitFor({ timeout: 30_000 });
      expect(await status.textContent()).toContain(
        'Your voice profile could not be loaded. Its file was damaged, so your voice profile is being made again from your recordings. Try again in a minute.',
      );
      if (engine === 'server') await saveScreenshots(page, 'speak-profile-being-made-again');

      await profileAt(email, damaged + 1);
      await page.getByRole('button', { name: 'Connect again' }).click();
      // The new version is a new profile: the app says so, as after any training.
      await page.getByRole('button', { name: 'Use Parla' }).click();
      await pressToTalk(page);
      await expectSpoken(page, SAID);
    });
  }
});

describe('a take whose file was lost', () => {
  it('is asked for again on the phrases page, saying why, until it is recorded again', async () => {
    const user = await server.signUp();
    const version = await trainVoiceProfile(server, user, PHRASES);
    // One take of "good morning" gone, with the analysis kept beside it.
    const take = await server.db
      .selectFrom('recordings')
      .innerJoin('phrases', 'phrases.id', 'recordings.phrase_id')
      .select(['recordings.storage_key', 'phrases.id as phraseId'])
      .where('recordings.user_id', '=', user.session.user.id)
      .where('phrases.text', '=', SAID)
      .executeTakeFirstOrThrow();
    const file = path.join(server.dataDir, 'blobs', take.storage_key);
    await rm(file);
    await rm(file.replace(/\.wav$/, '.analysis'), { force: true });
    // The next training finds it gone and trains on the other eight.
    await server.services.jobs.enqueue('train_profile', user.session.user.id, {});
    await profileAt(user.email, version + 1);
    await dismissProfileUpdated(server, user);
    await seedSession(context, user, { notificationStatus: { acoustic_model_version: String(version + 1) } });
    await fetch(`${server.url}/app/scenarios/activate/conversation`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${user.session.access_token}` },
    });

    const LOST = 'One recording of this phrase could no longer be read. Please record it again.';
    await page.goto('/record');
    const item = page.getByRole('listitem').filter({ hasText: SAID });
    await item.getByText(LOST).waitFor();
    expect(await item.textContent()).toContain('2 of 3 takes');
    // The other phrases are whole, and say nothing of it.
    expect(await page.getByText(/could no longer be read/).count()).toBe(1);
    await saveScreenshots(page, 'record-phrases-take-lost');
    // The person's own phrases say it too, in the list and on the phrase's page.
    await page.goto('/record/personal_vocabulary');
    await page.getByRole('listitem').filter({ hasText: SAID }).getByText(LOST).waitFor();
    await page.goto(`/record/personal_vocabulary/${take.phraseId}`);
    await page.getByText(LOST).waitFor();
    await saveScreenshots(page, 'vocabulary-item-take-lost');
    await page.goto('/record');

    // Recorded again through the recorder: the phrase is whole, and the words are gone.
    await item.getByRole('link', { name: `Record “${SAID}”` }).click();
    await page.getByText('take 3 of 3').waitFor();
    await page.getByRole('button', { name: 'Record', exact: true }).click();
    await page.getByRole('meter', { name: 'Microphone level' }).waitFor();
    await endTake(page);
    await page.getByRole('button', { name: 'Keep and go on' }).click();
    await page.getByRole('heading', { name: 'Every phrase is recorded' }).waitFor();
    await page.getByRole('link', { name: 'Back to phrases' }).first().click();
    await item.getByText('3 of 3 takes').waitFor();
    expect(await page.getByText(/could no longer be read/).count()).toBe(0);
  }, 120_000);
});
