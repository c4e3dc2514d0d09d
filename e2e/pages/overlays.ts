import type { Page } from 'playwright-core';

/** The cookie notice at the bottom of every page until the visitor chooses. */
export class CookieNotice {
  constructor(readonly page: Page) {}

  readonly region = () => this.page.getByRole('region', { name: 'Cookies' });
  readonly nonEssential = () => this.region().getByLabel('Non-essential (optional)');
  readonly essential = () => this.region().getByLabel('Essential (always on)');
  readonly save = () => this.region().getByRole('button', { name: 'Save my choice' });
  readonly acceptAll = () => this.region().getByRole('button', { name: 'Accept all' });
}

/** The terms and privacy re-acceptance dialog. */
export class TermsDialog {
  constructor(readonly page: Page) {}

  readonly dialog = () => this.page.getByRole('dialog', { name: 'Our terms have changed' });
  readonly agree = () => this.dialog().getByLabel('I agree to the Terms of Service and the Privacy Policy');
  readonly marketing = () => this.dialog().getByLabel('Send me news about the product (optional)');
  readonly accept = () => this.dialog().getByRole('button', { name: 'Accept' });
  readonly error = () => this.dialog().getByText('It is required to agree');
}
