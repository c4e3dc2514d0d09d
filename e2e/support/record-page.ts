import type { Page } from 'playwright-core';

/**
 * Presses Stop once the take holds one loop of the file plus the phrase (the whole phrase),
 * and waits for the recorded take. A short phrase's take stops itself at its length limit
 * (5 s), which on a busy machine can come before the press: then there is nothing to press.
 */
export async function endTake(page: Page) {
  await page.waitForTimeout(4600);
  const recorded = page.getByRole('img', { name: /^Your take, \d+\.\d seconds$/ });
  if (!(await recorded.isVisible()))
    await page
      .getByRole('button', { name: 'Stop' })
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  await recorded.waitFor();
}
