import type { Page } from 'playwright-core';

/** What every signed-in page has: the header with the menu, and one h1. */
export class AppShell {
  constructor(readonly page: Page) {}

  readonly heading = () => this.page.getByRole('heading', { level: 1 });
  readonly menuButton = () => this.page.getByRole('banner').getByRole('link', { name: 'Menu' });
  readonly toasts = () => this.page.locator('#notistack-snackbar');

  /** The path the app settled on. */
  path() {
    return new URL(this.page.url()).pathname;
  }

  async waitForPath(path: string | RegExp) {
    await this.page.waitForURL((url) =>
      typeof path === 'string' ? url.pathname === path : path.test(url.pathname + url.search),
    );
  }
}
