import type { Page } from 'playwright-core';

// Steps on a page that listens (speak, dictate) shared by the browser tests.

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
