import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AppShell } from './pages/app-shell.js';
import { SignUpPage } from './pages/sign-up-page.js';
import { seriousViolations } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import type { TestServer } from './support/server.js';
import { seedSession } from './support/session.js';

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness));

const storedUser = (email: string) =>
  server.db
    .selectFrom('users')
    .select([
      'id',
      'source_tracking',
      'guardian_consent',
      'parent_email',
      'support_person_consent',
      'cookies_consent_types',
    ])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();

describe('sign-up', () => {
  it('signs an adult up, with the source tracking taken from the address', async () => {
    const signUp = new SignUpPage(page);
    await signUp.goto('?utm_source=clinic&utm_medium=leaflet&utm_campaign=spring');
    // The utm parameters leave the address at once.
    expect(new URL(page.url()).search).toBe('');
    expect(await seriousViolations(page)).toEqual([]);

    const email = `adult-${Date.now()}@example.org`;
    await signUp.fillAccount({
      email,
      password: 'talk to me 77',
      name: 'Sam Adult',
      birthdate: '1975-06-01',
      country: 'GB',
    });
    await signUp.acceptTerms();
    await signUp.submit().click();

    await new AppShell(page).waitForPath('/record');
    const user = await storedUser(email);
    expect(user.source_tracking).toEqual({
      utm_source: 'clinic',
      utm_medium: 'leaflet',
      utm_campaign: 'spring',
    });
    expect(user.cookies_consent_types).toEqual(['essential']);
    expect(user.guardian_consent).toBeNull();
  });

  it('says what is missing when the form is sent empty', async () => {
    const signUp = new SignUpPage(page);
    await signUp.goto();
    await signUp.submit().click();
    await page.getByText('Enter your email address').waitFor();
    await page.getByText('Terms of Service have not been accepted.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('signs a minor up with the guardian consent form of their region', async () => {
    const signUp = new SignUpPage(page);
    await signUp.goto();
    const email = `minor-${Date.now()}@example.org`;
    await signUp.fillAccount({
      email,
      password: 'talk to me 77',
      name: 'Kim Young',
      birthdate: '2014-03-02',
      country: 'CA',
      regionCode: 'ON',
    });

    // The form follows the country: Canada's, then the United States'.
    await signUp.guardianSection().getByText('Consent form for Canada').waitFor();
    await page.getByLabel('Country').selectOption('US');
    await signUp.guardianSection().getByText('Consent form for the United States').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await signUp.acceptTerms();
    await signUp.submit().click();
    await page.getByText("Enter your parent's or guardian's email address").waitFor();
    await page.getByText('A parent or guardian must agree to be involved').waitFor();

    await signUp.fillGuardian('parent@example.org', 'Pat Young');
    await page.getByLabel('I agree that my support person or guardian may be involved in my account').check();
    await signUp.submit().click();

    await new AppShell(page).waitForPath('/record');
    const user = await storedUser(email);
    expect(user.parent_email).toBe('parent@example.org');
    expect(user.support_person_consent).toBe(true);
    expect(user.guardian_consent).toMatchObject({
      region: 'USA',
      guardian_name: 'Pat Young',
      relationship: 'parent',
      agreed: true,
    });
  });

  it('sends a user with an incomplete profile to set it up first', async () => {
    const user = await server.signUp();
    await server.db
      .updateTable('profiles')
      .set({ native_language: null })
      .where('user_id', '=', user.session.user.id)
      .execute();
    await seedSession(context, user);
    await page.goto('/speak');

    const shell = new AppShell(page);
    await shell.waitForPath('/sign-up');
    await shell.toasts().filter({ hasText: 'Please, setup your profile at first' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Set up your profile' }).waitFor();
    await expect(page.getByLabel('Your name').inputValue()).resolves.toBe('Alex Rivera');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Language you speak').selectOption('en-US');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await shell.waitForPath('/record');
    const profile = await server.db
      .selectFrom('profiles')
      .select('native_language')
      .where('user_id', '=', user.session.user.id)
      .executeTakeFirstOrThrow();
    expect(profile.native_language).toBe('en-US');
  });
});
