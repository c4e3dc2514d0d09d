import type { Page } from 'playwright-core';

/** The /login screen. */
export class LoginPage {
  constructor(readonly page: Page) {}

  readonly heading = () => this.page.getByRole('heading', { level: 1, name: 'Log in' });
  readonly email = () => this.page.getByLabel('Email address');
  readonly password = () => this.page.getByLabel('Password', { exact: false }).first();
  readonly submit = () => this.page.getByRole('button', { name: 'Log in', exact: true });
  readonly alert = () => this.page.getByRole('alert');

  async goto(loginRedirect?: string) {
    await this.page.goto(
      loginRedirect ? `/login?login_redirect=${encodeURIComponent(loginRedirect)}` : '/login',
    );
    await this.heading().waitFor();
  }

  async logIn(email: string, password: string) {
    await this.email().fill(email);
    await this.password().fill(password);
    await this.submit().click();
  }
}
