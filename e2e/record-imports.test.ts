import { readFileSync } from 'node:fs';
import type { Phrase } from '@parla/contract';
import { zipSync } from 'fflate';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshots, seriousViolations } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import type { TestServer, TestUser } from './support/server.js';
import { seedSession } from './support/session.js';
import { phraseWav } from './support/speech.js';

// Importing recordings a person already has, through the real import screens: files are
// chosen in the browser's file chooser, sent to the real server, and the report lists
// what became takes and what was refused, with why.

const memo = new Uint8Array(
  readFileSync(new URL('../apps/server/test/fixtures/audio/Yes please.m4a', import.meta.url)),
);

let kettle: Uint8Array;
let thanks: Uint8Array;
let yes1: Uint8Array;
let yes2: Uint8Array;
beforeAll(async () => {
  [kettle, thanks, yes1, yes2] = await Promise.all([
    phraseWav('Put the kettle on'),
    phraseWav('Thank you very much'),
    phraseWav('Yes please'),
    phraseWav('Yes please', { wordsPerMinute: 140, pitch: 60 }),
  ]);
});

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness));

const file = (name: string, bytes: Uint8Array, mimeType = 'application/octet-stream') => ({
  name,
  mimeType,
  buffer: Buffer.from(bytes),
});

/** Chooses files through the page's own "Choose files" / "Add more files" button. */
async function chooseFiles(files: ReturnType<typeof file>[]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: /^(Choose files|Add more files)$/ }).click();
  await (await chooser).setFiles(files);
}

async function takesOf(user: TestUser) {
  return server.db
    .selectFrom('recordings')
    .select('id')
    .where('user_id', '=', user.session.user.id)
    .execute();
}

describe('importing recordings in the browser', () => {
  it('imports audio files with typed words and a zip, reports what was refused, and shows the phrases', async () => {
    const user = await server.signUp();
    await seedSession(context, user);

    await page.goto('/record/import_samples');
    await page.getByRole('heading', { name: 'Import recordings you already have' }).waitFor();
    for (const source of ['My own audio files', 'Apple Voice Memos', 'Relate'])
      expect(await page.getByRole('link', { name: new RegExp(`^${source}`) }).isVisible()).toBe(true);
    await saveScreenshots(page, 'import-samples');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('link', { name: /^My own audio files/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Import your own audio files' }).waitFor();
    expect(await page.locator('input[type=file]').getAttribute('accept')).toContain('.wav');
    await saveScreenshots(page, 'import-manual');
    expect(await seriousViolations(page)).toEqual([]);

    // Recordings without their words are caught before anything is sent.
    await chooseFiles([file('kettle.wav', kettle, 'audio/wav'), file('thanks.wav', thanks, 'audio/wav')]);
    await page.getByRole('button', { name: 'Import 2 files' }).click();
    await page.getByText('2 recordings have no words yet').waitFor();
    const kettleWords = page.getByRole('textbox', { name: 'What is said in kettle.wav' });
    expect(await kettleWords.evaluate((element) => element === document.activeElement)).toBe(true);
    await kettleWords.fill('Put the kettle on');
    await page.getByRole('textbox', { name: 'What is said in thanks.wav' }).fill('Thank you very much');

    // A refusal of the whole import (a broken zip): said clearly, nothing stored.
    await chooseFiles([file('broken.zip', new TextEncoder().encode('zip? no'), 'application/zip')]);
    await page.getByRole('button', { name: 'Import 3 files' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'Nothing was imported' });
    await failure.getByText('The archive could not be opened').waitFor();
    expect(await takesOf(user)).toHaveLength(0);
    await page.getByRole('button', { name: 'Remove broken.zip' }).click();

    // Offline: the screen says so and keeps the files.
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Import 2 files' }).click();
    await failure.getByText('There is no connection to the server').waitFor();
    expect(new URL(page.url()).pathname).toBe('/record/import_samples/manual');
    await context.setOffline(false);

    // A zip of recordings and their transcripts file, with a file that is not audio.
    const archive = zipSync({
      'my recordings/yes-1.wav': yes1,
      'my recordings/yes-2.wav': yes2,
      'my recordings/notes.txt': new TextEncoder().encode('not audio'),
      'my recordings/mystery.wav': yes1,
      'transcripts.csv': new TextEncoder().encode(
        'file,text\nyes-1.wav,Yes please\nyes-2,Yes please\nnotes.txt,Hello\n',
      ),
    });
    await chooseFiles([file('recordings.zip', archive, 'application/zip')]);
    await page.getByText(/Zip file: its recordings/).waitFor();
    await saveScreenshots(page, 'import-manual-chosen');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Import 3 files' }).click();

    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 30_000 });
    await page.getByText('4 recordings imported · 2 files not imported').waitFor();
    const imported = page.getByRole('list', { name: 'Imported (4)' });
    expect(await imported.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining('Put the kettle on'),
      expect.stringContaining('Thank you very much'),
      expect.stringContaining('Yes please'),
      expect.stringContaining('Yes please'),
    ]);
    const refused = page.getByRole('list', { name: 'Not imported (2)' });
    await refused
      .getByRole('listitem')
      .filter({ hasText: 'notes.txt' })
      .getByText('This file is not audio we can read')
      .waitFor();
    await refused
      .getByRole('listitem')
      .filter({ hasText: 'mystery.wav' })
      .getByText('No transcript names this file.')
      .waitFor();
    // These files are the words in digital silence, as an editor leaves them: the report
    // asks for one take of each phrase recorded here, and links to recording it.
    const recordHere = page.getByRole('alert').filter({ hasText: 'Record these phrases here too' });
    await recordHere.getByText('4 recordings hold little of the sound around their words').waitFor();
    expect(await recordHere.getByRole('link').allInnerTexts()).toEqual([
      'Record “Put the kettle on”',
      'Record “Thank you very much”',
      'Record “Yes please”',
    ]);
    const stored = await server.db
      .selectFrom('phrases')
      .select(['id', 'text'])
      .where('user_id', '=', user.session.user.id)
      .execute();
    const kettleId = stored.find((phrase) => phrase.text === 'Put the kettle on')?.id;
    expect(
      await recordHere.getByRole('link', { name: 'Record “Put the kettle on”' }).getAttribute('href'),
    ).toBe(`/record/training/${kettleId}`);
    await saveScreenshots(page, 'import-manual-result');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await takesOf(user)).toHaveLength(4);

    // The new phrases and their takes are on /record at once (the queries were refreshed).
    await page.getByRole('link', { name: 'See your phrases' }).click();
    const phrases = page.getByRole('list', { name: /^Your phrases: / });
    const yes = phrases.getByRole('listitem').filter({ hasText: 'Yes please' });
    await yes.getByText('2 of 3 takes').waitFor();
    await phrases
      .getByRole('listitem')
      .filter({ hasText: 'Put the kettle on' })
      .getByText('1 of 3 takes')
      .waitFor();
    await phrases.getByRole('listitem').filter({ hasText: 'Thank you very much' }).waitFor();
  }, 90_000);

  it('imports Voice Memos under their titles and refuses one with a default title', async () => {
    const user = await server.signUp();
    await seedSession(context, user);

    await page.goto('/record/import_samples/apple');
    await page.getByRole('heading', { level: 1, name: 'Import Apple Voice Memos' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await chooseFiles([
      file('Yes please.m4a', memo, 'audio/mp4'),
      file('New Recording 3.m4a', memo, 'audio/mp4'),
    ]);
    await page.getByText('Leave empty to use the memo’s title: “Yes please”.').waitFor();
    await page.getByText('This memo has no title yet: type what is said in it.').waitFor();
    await saveScreenshots(page, 'import-apple-chosen');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Import 2 files' }).click();

    await page.getByText('1 recording imported · 1 file not imported').waitFor({ timeout: 30_000 });
    await page.getByRole('list', { name: 'Imported (1)' }).getByText('Yes please', { exact: true }).waitFor();
    await page
      .getByRole('list', { name: 'Not imported (1)' })
      .getByText('This memo still has its default title')
      .waitFor();
    const response = await fetch(`${server.url}/app/casr/phrases`, {
      headers: { authorization: `Bearer ${user.session.access_token}` },
    });
    const { phrases } = (await response.json()) as { phrases: Phrase[] };
    expect(phrases.filter((phrase) => phrase.takes > 0).map((phrase) => phrase.text)).toEqual(['Yes please']);

    // The same memo again (the person unsure the first import worked): nothing to fix, nothing kept twice.
    await page.goto('/record/import_samples/apple');
    await chooseFiles([file('Yes please.m4a', memo, 'audio/mp4')]);
    await page.getByRole('button', { name: 'Import 1 file' }).click();
    const summary = page
      .getByRole('alert')
      .filter({ hasText: '0 recordings imported · 1 file not imported' });
    await summary
      .getByText('This recording is among your takes already: there was nothing new to import.')
      .waitFor({ timeout: 30_000 });
    expect(await summary.getAttribute('class')).toContain('Info');
    await page
      .getByRole('list', { name: 'Not imported (1)' })
      .getByText('This recording is among your takes already.')
      .waitFor();
    await saveScreenshots(page, 'import-again');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await takesOf(user)).toHaveLength(1);
  }, 60_000);

  it('explains a Relate export and takes dropped files with their transcripts file', async () => {
    const user = await server.signUp();
    await seedSession(context, user);
    await page.goto('/record/import_samples/relate');
    await page.getByRole('heading', { level: 1, name: 'Import from Relate' }).waitFor();
    await page.getByText('We do not guess what a recording says').waitFor();
    await saveScreenshots(page, 'import-relate');
    expect(await seriousViolations(page)).toEqual([]);

    // Files dropped on the area: a transcripts file fills in the words of the recording.
    const wav = Array.from(yes1);
    await page.getByText('Drag files here, or').evaluate((label, bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'clip-7.wav', { type: 'audio/wav' }));
      transfer.items.add(
        new File(['file,text\nclip-7,Yes please\n'], 'transcripts.csv', { type: 'text/csv' }),
      );
      const zone = label.parentElement;
      zone?.dispatchEvent(
        new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }),
      );
      zone?.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, wav);
    await page.getByText('Transcripts file: 1 line read').waitFor();
    expect(await page.getByRole('textbox', { name: 'What is said in clip-7.wav' }).inputValue()).toBe(
      'Yes please',
    );
    await page.getByText('From transcripts.csv. You can change the words.').waitFor();
    await page.getByRole('button', { name: 'Import 1 file' }).click();
    await page.getByText('1 recording imported · 0 files not imported').waitFor({ timeout: 30_000 });
  });
});
