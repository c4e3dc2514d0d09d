import type { Page } from 'playwright-core';

/** /menu: every place of the app, and logout. */
export class MenuPage {
  constructor(readonly page: Page) {}

  readonly heading = () => this.page.getByRole('heading', { level: 1, name: 'Menu' });
  readonly logout = () => this.page.getByRole('button', { name: 'Log out' });
  readonly link = (name: string) => this.page.getByRole('main').getByRole('link', { name, exact: true });

  async goto() {
    await this.page.goto('/menu');
    await this.heading().waitFor();
  }
}
