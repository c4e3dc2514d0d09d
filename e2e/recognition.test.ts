import { hashPasswordForTransport } from '@parla/contract';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TermsDialog } from './pages/overlays.js';
import { saveScreenshots, seriousViolations } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import type { TestServer, TestUser } from './support/server.js';
import { seedSession } from './support/session.js';
import { expectSpoken } from './support/speak-page.js';
import { fakeMicrophone, writePhraseWav } from './support/speech.js';
import { dismissProfileUpdated, trainingTakes, trainVoiceProfile } from './support/training.js';

// Being understood, end to end in real Chromium: a trained voice profile, and a fake
// microphone that says one of its phrases (spoken differently from the enrolment takes).

const PHRASES = ['good morning', 'thank you very much', 'I would like a cup of tea'];
const SAID = 'good morning';

const microphoneWav = fakeMicrophone('recognition', (file) =>
  writePhraseWav(file, SAID, { wordsPerMinute: 155, pitch: 48, silenceBefore: 1, silenceAfter: 1.5 }),
);

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness), { fakeMicrophoneWav: microphoneWav });

let trained: TestUser | undefined;
let modelVersion = 0;
/** One trained user for the file: training takes a few seconds. */
async function trainedUser() {
  if (!trained) {
    const user = await server.signUp();
    modelVersion = await trainVoiceProfile(server, user, PHRASES);
    await dismissProfileUpdated(server, user);
    trained = user;
  }
  return trained;
}

/** Each test gets its own session of the trained user, so no refresh token is spent twice. */
async function signInTrained(state: Record<string, unknown> = {}) {
  const user = await trainedUser();
  const login = await fetch(`${server.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: user.email,
      password: await hashPasswordForTransport(user.password),
      app_id: 'casr_web_app',
      api_key: 'parla-web-app',
    }),
  });
  if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  const session = (await login.json()) as TestUser['session'];
  // The profile may have moved on since training (results are kept and can refine it).
  const models = (await (
    await fetch(`${server.url}/app/modelsInfo`, {
      headers: { authorization: `Bearer ${session.access_token}` },
    })
  ).json()) as { models: { version: number }[] };
  await seedSession(
    context,
    { ...user, session },
    {
      notificationStatus: { acoustic_model_version: String(models.models[0]?.version ?? modelVersion) },
      ...state,
    },
  );
}

/** The person's kept recognitions, oldest first. */
const recognitionsOf = (user: TestUser) =>
  server.db
    .selectFrom('recordings')
    .select('storage_key')
    .where('user_id', '=', user.session.user.id)
    .where('kind', '=', 'recognition')
    .orderBy('created_at')
    .execute();

/** With SCREENSHOTS=1, the page at both widths, each checked by axe too. */
async function screenshots(name: string) {
  await saveScreenshots(page, name, async () => {
    expect(await seriousViolations(page)).toEqual([]);
  });
}

async function startListening(options: { handsFree?: boolean } = {}) {
  const status = page.getByTestId('recognition-status');
  await status.getByText(/Ready to listen/).waitFor({ timeout: 20_000 });
  if (options.handsFree) await page.getByRole('button', { name: 'Hands-free' }).click();
  await page
    .getByRole('button', { name: 'Start listening' })
    .click()
    .catch(async (error: unknown) => {
      await page.screenshot({ path: path.join(tmpdir(), 'parla-recognition-failure.png') });
      throw error;
    });
}

/** The person's takes made of confirmed utterances, and their kept recognitions, counted. */
async function localCounts(user: TestUser) {
  const takes = await trainingTakes(server, user);
  return {
    confirmed: takes.filter((take) => take.source === 'confirmed').length,
    kept: (await recognitionsOf(user)).length,
  };
}

/**
 * On /speak, recognised on this device while the server cannot have the utterance: says the
 * phrase, answers "That's right", and waits until the answer is kept on the device.
 */
async function sayAndConfirmUnsent() {
  await page.goto('/speak');
  await page.getByText('Ready to listen (recognised on this device)').waitFor({ timeout: 30_000 });
  await startListening();
  await expectSpoken(page, SAID);
  await page.getByRole('button', { name: 'That’s right' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: 'this is kept on your device' })
    .waitFor({ timeout: 15_000 });
}

describe('being understood', () => {
  it('speak: the phrase is shown large and spoken aloud with the synthesized voice', async () => {
    await signInTrained();
    const synthesized = page.waitForResponse(
      (response) => response.url().endsWith('/api/v1/synthesize') && response.request().method() === 'POST',
      { timeout: 30_000 },
    );
    await page.goto('/speak');
    await startListening();
    await expectSpoken(page, SAID);
    const response = await synthesized;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('audio/mpeg');
    expect(JSON.parse(response.request().postData() ?? '{}')).toMatchObject({ text: SAID });
    // Playback started: the element has the audio and its clock moves.
    await expect
      .poll(
        () =>
          page.getByTestId('speech-audio').evaluate((audio: HTMLAudioElement) => ({
            src: audio.src.startsWith('blob:'),
            started: audio.currentTime > 0 || audio.ended,
            rate: audio.playbackRate,
          })),
        { timeout: 15_000 },
      )
      .toEqual({ src: true, started: true, rate: 0.75 });
    // When the phrase has been spoken, the stop button goes away again.
    await page.getByRole('button', { name: 'Stop speaking' }).waitFor({ state: 'hidden', timeout: 15_000 });
    // The conversation keeps it; the page stays accessible while listening.
    await page.getByRole('button', { name: `Say “${SAID}” again` }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots('speak-understood');

    // Saying it was right teaches the profile: the utterance becomes a take of the phrase.
    await page.getByRole('button', { name: 'That’s right' }).click();
    await page.getByRole('status').filter({ hasText: 'your voice profile learns from this' }).waitFor();
    const user = await trainedUser();
    await expect
      .poll(
        async () => (await trainingTakes(server, user)).filter((take) => take.source === 'confirmed').length,
      )
      .toBe(1);
  });

  it('speak: an answer the person never meant can be marked as none of their phrases', async () => {
    await signInTrained();
    await page.goto('/speak');
    await startListening();
    await expectSpoken(page, SAID);
    await page.getByRole('button', { name: 'Not what I said' }).click();
    // The other phrases it might have been, and the way to say it was none of them.
    const choices = page.getByRole('group', { name: 'Did you say…' });
    await choices.getByRole('button', { name: '“thank you very much”' }).waitFor();
    await screenshots('speak-not-what-i-said');
    const marked = page.waitForResponse((response) => response.url().endsWith('/none_of_my_phrases'));
    await choices.getByRole('button', { name: 'Not one of my phrases' }).click();
    expect((await marked).status()).toBe(201);
    await page.getByRole('status').filter({ hasText: 'your voice profile learns from this' }).waitFor();
    const user = await trainedUser();
    const takes = await trainingTakes(server, user);
    expect(takes.filter((take) => take.source === 'unknown')).toEqual([
      { source: 'unknown', phraseId: null },
    ]);
  });

  it('speak: a confirmation whose recording is no longer kept says so instead of thanks', async () => {
    await signInTrained();
    await page.goto('/speak');
    const user = await trainedUser();
    const before = new Set((await recognitionsOf(user)).map((row) => row.storage_key));
    await startListening();
    await expectSpoken(page, SAID);
    // Its recording is kept just after the result; then its file is lost.
    await expect
      .poll(async () => (await recognitionsOf(user)).filter((row) => !before.has(row.storage_key)).length)
      .toBe(1);
    const kept = (await recognitionsOf(user)).find((row) => !before.has(row.storage_key));
    await rm(path.join(server.dataDir, 'blobs', kept?.storage_key ?? ''));
    const confirmed = page.waitForResponse((response) => response.url().endsWith('/confirm'));
    await page.getByRole('button', { name: 'That’s right' }).click();
    expect((await confirmed).status()).toBe(410);
    await page.getByRole('status').filter({ hasText: 'This recording is no longer kept' }).waitFor();
    expect(await page.getByText('your voice profile learns from this').count()).toBe(0);
    await screenshots('speak-confirmation-recording-gone');
  });

  it('hands-free: the microphone stays open and each utterance is recognised in turn', async () => {
    await signInTrained();
    await page.goto('/speak');
    await startListening({ handsFree: true });
    // The fake microphone repeats the phrase every few seconds; each one joins the conversation.
    await expect
      .poll(() => page.getByRole('button', { name: `Say “${SAID}” again` }).count(), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(2);
    // While listening: the live level meter and the stop button are accessible too.
    await page.getByRole('meter', { name: 'Microphone level' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots('speak-hands-free');
    await page.getByRole('button', { name: 'Stop listening' }).click();
    await page.getByText('Not listening').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('parla.listeningMode'))).toBe('"hands_free"');
  });

  it('a shortcut said aloud is replaced by what it stands for', async () => {
    const user = await trainedUser();
    const headers = {
      authorization: `Bearer ${user.session.access_token}`,
      'content-type': 'application/json',
    };
    const OUTPUT = 'Good morning! I use this app to speak; please give me a moment.';
    const created = (await (
      await fetch(`${server.url}/app/casr/shortcut_phrases`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ input: 'Good Morning', output: OUTPUT }),
      })
    ).json()) as { id: string };
    try {
      await signInTrained();
      const synthesized = page.waitForRequest((request) => request.url().endsWith('/api/v1/synthesize'), {
        timeout: 30_000,
      });
      await page.goto('/speak');
      await startListening();
      await expectSpoken(page, OUTPUT);
      expect(JSON.parse((await synthesized).postData() ?? '{}')).toMatchObject({ text: OUTPUT });
    } finally {
      const removed = await fetch(`${server.url}/app/casr/shortcut_phrases/${created.id}`, {
        method: 'DELETE',
        headers: { authorization: headers.authorization },
      });
      expect(removed.status).toBe(200);
    }
  });

  it('dictate: the phrase is written into a new note that is still there after a reload', async () => {
    await signInTrained();
    await page.goto('/dictate');
    await startListening();
    const note = page.getByLabel('Note text');
    await expect.poll(() => note.inputValue(), { timeout: 30_000 }).toBe(SAID);
    await page.getByTestId('save-status').getByText('Saved').waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('note')).toBeTruthy();
    await page.reload();
    await expect.poll(() => page.getByLabel('Note text').inputValue(), { timeout: 15_000 }).toBe(SAID);
    // Checked once settled: mid-way through the listen button's colour change axe would measure a blend.
    await page
      .getByTestId('recognition-status')
      .getByText(/Ready to listen/)
      .waitFor({ timeout: 20_000 });
    await page.waitForTimeout(500);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots('dictate-note');
  });

  it('dictate: a phrase written wrongly is put right from its choices, and the profile learns from it', async () => {
    // A profile of its own: this test teaches it a wrong phrase on purpose.
    const user = await server.signUp();
    const version = await trainVoiceProfile(server, user, PHRASES);
    await dismissProfileUpdated(server, user);
    await seedSession(context, user, { notificationStatus: { acoustic_model_version: String(version) } });
    const phraseIds = new Map(
      (
        await server.db
          .selectFrom('phrases')
          .select(['id', 'text'])
          .where('user_id', '=', user.session.user.id)
          .execute()
      ).map((phrase) => [phrase.text, phrase.id]),
    );
    await page.goto('/dictate');
    await startListening();
    const note = page.getByLabel('Note text');
    await expect.poll(() => note.inputValue(), { timeout: 30_000 }).toBe(SAID);
    const last = page.getByTestId('last-dictation');
    await last.getByText(`Written into the note: “${SAID}”`).waitFor();
    await last.getByRole('button', { name: 'Not what I said' }).click();
    const choices = last.getByRole('group', { name: 'Did you say…' });
    await choices.getByRole('button', { name: '“thank you very much”' }).waitFor();
    await screenshots('dictate-not-what-i-said');
    // The phrase meant takes the place of the one written, and the utterance becomes its take.
    const confirmed = page.waitForResponse((response) => response.url().endsWith('/confirm'));
    await choices.getByRole('button', { name: '“thank you very much”' }).click();
    expect((await confirmed).status()).toBe(201);
    await expect.poll(() => note.inputValue()).toBe('thank you very much');
    await last.getByRole('status').filter({ hasText: 'your voice profile learns from this' }).waitFor();
    await last.getByText('Written into the note: “thank you very much”').waitFor();
    expect((await trainingTakes(server, user)).filter((take) => take.source === 'confirmed')).toEqual([
      { source: 'confirmed', phraseId: phraseIds.get('thank you very much') },
    ]);

    // Said again, it is written after it; marked as none of the person's phrases, it is taken out.
    await startListening();
    await expect.poll(() => note.inputValue(), { timeout: 30_000 }).toBe(`thank you very much ${SAID}`);
    await last.getByRole('button', { name: 'Not what I said' }).click();
    const marked = page.waitForResponse((response) => response.url().endsWith('/none_of_my_phrases'));
    await last.getByRole('button', { name: 'Not one of my phrases' }).click();
    expect((await marked).status()).toBe(201);
    await expect.poll(() => note.inputValue()).toBe('thank you very much');
    await last.getByText(`Taken out of the note: “${SAID}”`).waitFor();
    expect(await last.getByText('Written into the note').count()).toBe(0);
    await screenshots('dictate-none-of-my-phrases');
    expect((await trainingTakes(server, user)).filter((take) => take.source === 'unknown')).toHaveLength(1);

    // Said once more, and the person writes on after it: what they wrote is never touched,
    // though the profile still learns what they meant.
    await startListening();
    await expect.poll(() => note.inputValue(), { timeout: 30_000 }).toBe(`thank you very much ${SAID}`);
    await note.press('End');
    await note.pressSequentially(', Sam');
    await last.getByRole('button', { name: 'Not what I said' }).click();
    const confirmedAgain = page.waitForResponse((response) => response.url().endsWith('/confirm'));
    await last.getByRole('button', { name: '“I would like a cup of tea”' }).click();
    expect((await confirmedAgain).status()).toBe(201);
    await last.getByText(/The note has changed since, so it was left as it is/).waitFor();
    expect(await note.inputValue()).toBe(`thank you very much ${SAID}, Sam`);
    // What the note says now is what is kept.
    await page.getByTestId('save-status').getByText('Saved').waitFor({ timeout: 15_000 });
    await page.reload();
    await expect
      .poll(() => page.getByLabel('Note text').inputValue(), { timeout: 15_000 })
      .toBe(`thank you very much ${SAID}, Sam`);
  });

  it('dictate: a phrase turned away is written from its choices, and the profile learns it', async () => {
    // A profile without the phrase the microphone says: it is turned away.
    const user = await server.signUp();
    const version = await trainVoiceProfile(server, user, [
      'thank you very much',
      'I would like a cup of tea',
      'where is the bathroom',
    ]);
    await dismissProfileUpdated(server, user);
    await seedSession(context, user, { notificationStatus: { acoustic_model_version: String(version) } });
    await page.goto('/dictate');
    await startListening();
    const last = page.getByTestId('last-dictation');
    await last.getByText('Not sure what you said — try again.').waitFor({ timeout: 30_000 });
    const choices = last.getByRole('group', { name: 'Did you say…' });
    await choices.getByRole('button').first().waitFor();
    // Nothing was written, and an answer never given cannot be none of the person's phrases.
    expect(await page.getByText('Written into the note').count()).toBe(0);
    expect(await choices.getByRole('button', { name: 'Not one of my phrases' }).count()).toBe(0);
    await screenshots('dictate-rejected');
    const first = ((await choices.getByRole('button').first().textContent()) ?? '').replace(/[“”]/g, '');
    const confirmed = page.waitForResponse((response) => response.url().endsWith('/confirm'));
    await choices.getByRole('button').first().click();
    expect((await confirmed).status()).toBe(201);
    await expect.poll(() => page.getByLabel('Note text').inputValue(), { timeout: 15_000 }).toBe(first);
    await last.getByText(`Written into the note: “${first}”`).waitFor();
    expect((await trainingTakes(server, user)).filter((take) => take.source === 'confirmed')).toHaveLength(1);
  });

  it('local recognition: the profile runs in the browser, the result is kept on the server and answers teach from it', async () => {
    await signInTrained({ recognitionEngine: 'local' });
    const uploaded = page.waitForResponse(
      (response) => response.url().endsWith('/app/recording/recognition'),
      { timeout: 40_000 },
    );
    await page.goto('/speak');
    await page.getByText('Ready to listen (recognised on this device)').waitFor({ timeout: 30_000 });
    await startListening();
    await expectSpoken(page, SAID);
    const upload = await uploaded;
    expect(upload.status()).toBe(201);
    const kept = (await upload.json()) as { id: string; stored: boolean };
    expect(kept).toMatchObject({ stored: true });
    // Answered as on the server: the kept recording becomes a take of the phrase.
    const user = await trainedUser();
    const confirmedBefore = (await trainingTakes(server, user)).filter(
      (take) => take.source === 'confirmed',
    ).length;
    const confirmed = page.waitForResponse((response) => response.url().endsWith('/confirm'));
    await page.getByRole('button', { name: 'That’s right' }).click();
    const answer = await confirmed;
    expect([answer.status(), new URL(answer.url()).pathname]).toEqual([
      201,
      `/app/recording/recognition/${kept.id}/confirm`,
    ]);
    await page.getByRole('status').filter({ hasText: 'your voice profile learns from this' }).waitFor();
    await expect
      .poll(
        async () => (await trainingTakes(server, user)).filter((take) => take.source === 'confirmed').length,
      )
      .toBe(confirmedBefore + 1);
  });

  it('local recognition: an utterance and its answer the server cannot be sent wait on the device, and teach the profile later', async () => {
    await signInTrained({ recognitionEngine: 'local' });
    const user = await trainedUser();
    const before = await localCounts(user);
    // The server cannot be reached for keeping recordings (the rest of the app has what it needs).
    await page.route('**/app/recording/recognition**', (route) => route.abort('internetdisconnected'));
    await sayAndConfirmUnsent();
    await screenshots('speak-answered-offline');
    expect((await localCounts(user)).kept).toBe(before.kept);

    // The tab is closed before the server can be reached again: the next visit sends both.
    await page.close();
    const next = await context.newPage();
    const confirmed = next.waitForResponse((response) => response.url().endsWith('/confirm'), {
      timeout: 30_000,
    });
    await next.goto('/speak');
    expect((await confirmed).status()).toBe(201);
    await expect
      .poll(() => localCounts(user))
      .toEqual({ confirmed: before.confirmed + 1, kept: before.kept + 1 });
  });

  it('local recognition: an utterance and an answer whose replies were lost on the way are kept once', async () => {
    await signInTrained({ recognitionEngine: 'local' });
    const user = await trainedUser();
    const before = await localCounts(user);
    /** The server gets every request of `url`, and the browser never gets its reply. */
    const loseReplies = async (on: Page, url: string) => {
      let lost = 0;
      await on.route(url, async (route) => {
        await route.fetch();
        lost += 1;
        await route.abort('connectionreset');
      });
      return () => lost;
    };
    const uploadsLost = await loseReplies(page, '**/app/recording/recognition');
    await sayAndConfirmUnsent();
    // The server kept the utterance at its first try; the tries after it found it kept.
    expect(uploadsLost()).toBeGreaterThanOrEqual(2);
    expect((await localCounts(user)).kept).toBe(before.kept + 1);
    await page.close();

    // The next visit sends the utterance again and hears of it at last; the answer's reply is lost.
    const second = await context.newPage();
    const answersLost = await loseReplies(second, '**/confirm');
    await second.goto('/speak');
    await expect.poll(answersLost, { timeout: 30_000 }).toBe(1);
    await expect.poll(async () => (await localCounts(user)).confirmed).toBe(before.confirmed + 1);
    await second.close();

    // The visit after that sends the answer again: the server answers for the take it made.
    const third = await context.newPage();
    const confirmed = third.waitForResponse((response) => response.url().endsWith('/confirm'), {
      timeout: 30_000,
    });
    await third.goto('/speak');
    expect((await confirmed).status()).toBe(201);
    expect(await localCounts(user)).toEqual({ confirmed: before.confirmed + 1, kept: before.kept + 1 });
  });
});

describe('notes keep what was said', () => {
  it('a note that could not be saved is kept on the device and saved after a reload', async () => {
    const user = await server.signUp();
    await seedSession(context, user);
    await page.goto('/dictate');
    await page.getByRole('button', { name: 'New note' }).click();
    const note = page.getByLabel('Note text');
    await note.waitFor();
    // The connection drops: every save fails.
    await page.route('**/app/dictation_notes/*', (route) =>
      route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.fallback(),
    );
    await note.fill('Dear Sam, see you at noon');
    await note.blur();
    await page
      .getByTestId('save-status')
      .getByText(/Could not save/)
      .waitFor({ timeout: 15_000 });
    await page.unroute('**/app/dictation_notes/*');
    await page.reload();
    await expect
      .poll(() => page.getByLabel('Note text').inputValue(), { timeout: 15_000 })
      .toBe('Dear Sam, see you at noon');
    await page.getByTestId('save-status').getByText('Saved').waitFor({ timeout: 15_000 });
    // It really is on the server now.
    const notes = (await (
      await fetch(`${server.url}/app/dictation_notes`, {
        headers: { authorization: `Bearer ${user.session.access_token}` },
      })
    ).json()) as { notes: { text: string }[] };
    expect(notes.notes.map((n) => n.text)).toEqual(['Dear Sam, see you at noon']);
  });
});

describe('consent and the connection', () => {
  it('1013 asks to agree to the new privacy policy, and agreeing connects again', async () => {
    const user = await server.signUp();
    await server.db
      .updateTable('users')
      .set({ accepted_privacy_policy_at: null })
      .where('id', '=', user.session.user.id)
      .execute();
    await seedSession(context, user);
    await page.goto('/dictate');
    const status = page.getByTestId('recognition-status');
    await status.getByText('Please agree to the new privacy policy').waitFor({ timeout: 15_000 });
    const terms = new TermsDialog(page);
    await terms.agree().check();
    await terms.accept().click();
    await terms.dialog().waitFor({ state: 'hidden' });
    // Connected again: this person has no voice profile yet, and the page says so.
    await status.getByText(/No voice profile yet/).waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Record phrases' }).waitFor();
    await screenshots('dictate-no-profile');
  });
});
