import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer } from './server.js';
import { seedSession } from './session.js';
import { dismissProfileUpdated, trainVoiceProfile } from './training.js';

// Steps on a page that listens (speak, dictate) shared by the browser tests.

/** The phrases of the person `signInTrained` signs in. */
export const PHRASES = ['good morning', 'thank you very much', 'I would like a cup of tea'];

/**
 * From now on, every time the page says it did not understand (the whole page's text
 * then); read them with the function returned.
 */
export async function watchNotUnderstood(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { notSure: string[] }).notSure = seen;
    new MutationObserver(() => {
      if (document.body.innerText.includes('Not sure what you said')) seen.push(document.body.innerText);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { notSure: string[] }).notSure);
}

/** Once the page is ready to listen, presses to talk (the app's default way to listen). */
export async function pressToTalk(page: Page) {
  await page
    .getByTestId('recognition-status')
    .getByText(/Ready to listen/)
    .waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Start listening' }).click();
}

/**
 * Waits up to `timeout` ms for the page to show `text` as the phrase it understood. When it
 * does not, the error says what the page showed instead (its status line, a "Not sure"
 * notice), so that a failure on a busy machine tells why.
 */
export async function expectSpoken(page: Page, text: string, timeout = 30_000) {
  try {
    await expect.poll(() => page.getByTestId('spoken-phrase').textContent(), { timeout }).toBe(text);
  } catch (error) {
    // The status line, the phrase shown, and any notice (the page's alerts and statuses).
    const shown = await page
      .evaluate(() =>
        [
          ...document.querySelectorAll(
            '[data-testid="recognition-status"], [data-testid="spoken-phrase"], [role="alert"], [role="status"]',
          ),
        ]
          .map((element) => (element as HTMLElement).innerText.replace(/\s+/g, ' ').trim())
          .filter((line, i, all) => line !== '' && all.indexOf(line) === i)
          .join(' | '),
      )
      .catch(() => '(the page is gone)');
    throw new Error(`"${text}" was not shown within ${timeout / 1000} s. The page showed: ${shown}`, {
      cause: error,
    });
  }
}

/**
 * A new person with a profile of `PHRASES`, signed in; `state` goes into the app's storage.
 * Returns the person.
 */
export async function signInTrained(
  server: TestServer,
  context: BrowserContext,
  state: Record<string, unknown> = {},
) {
  const user = await server.signUp();
  const version = await trainVoiceProfile(server, user, PHRASES);
  await dismissProfileUpdated(server, user);
  await seedSession(context, user, {
    notificationStatus: { acoustic_model_version: String(version) },
    ...state,
  });
  return user;
}

/** Once the page is `ready`, listens hands-free. */
export async function listenHandsFree(page: Page, ready: RegExp) {
  await page.getByTestId('recognition-status').getByText(ready).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Hands-free' }).click();
  await page.getByRole('button', { name: 'Start listening' }).click();
}
