import type { Page } from 'playwright-core';

export interface SignUpDetails {
  email: string;
  password: string;
  name: string;
  birthdate: string;
  country: string;
  regionCode?: string;
}

/** The /sign-up screen (signed out). */
export class SignUpPage {
  constructor(readonly page: Page) {}

  readonly heading = () => this.page.getByRole('heading', { level: 1, name: 'Create your account' });
  readonly submit = () => this.page.getByRole('button', { name: 'Create account' });
  readonly guardianSection = () => this.page.getByRole('region', { name: 'Consent of a parent or guardian' });

  async goto(query = '') {
    await this.page.goto(`/sign-up${query}`);
    await this.heading().waitFor();
  }

  async fillAccount(details: SignUpDetails) {
    await this.page.getByLabel('Email address').fill(details.email);
    await this.page.getByLabel(/^Password/).fill(details.password);
    await this.page.getByLabel('Your name').fill(details.name);
    await this.page.getByLabel('Date of birth').fill(details.birthdate);
    await this.page.getByLabel('Country').selectOption(details.country);
    if (details.regionCode)
      await this.page.getByLabel('State or province code (optional)').fill(details.regionCode);
  }

  async acceptTerms() {
    await this.page.getByLabel('I accept the Terms of Service').check();
    await this.page.getByLabel('I accept the Privacy Policy').check();
  }

  async fillGuardian(email: string, name: string) {
    const section = this.guardianSection();
    await section.getByLabel("Parent's or guardian's email address").fill(email);
    await section.getByLabel("Parent's or guardian's full name").fill(name);
    await section.getByLabel('As the parent or guardian, I have read and agree to this consent form').check();
  }
}
