import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AppShell } from './pages/app-shell.js';
import { LoginPage } from './pages/login-page.js';
import { MenuPage } from './pages/menu-page.js';
import { CookieNotice, TermsDialog } from './pages/overlays.js';
import { seriousViolations, skipCookieNotice } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import type { TestServer } from './support/server.js';
import { readState, recordRequests, seedSession } from './support/session.js';

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness), { answerCookieNotice: false });

const consentsOf = (email: string) =>
  server.db
    .selectFrom('users')
    .select(['cookies_consent_types', 'marketing_consent', 'accepted_tos_at'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();

describe('cookie notice', () => {
  it('before sign-in keeps the choice locally, sends it after login, then clears it', async () => {
    const user = await server.signUp({ cookies_consent_types: undefined });
    const login = new LoginPage(page);
    await login.goto();
    const notice = new CookieNotice(page);
    await notice.region().waitFor();
    expect(await notice.essential().isChecked()).toBe(true);
    expect(await notice.essential().isDisabled()).toBe(true);
    expect(await notice.nonEssential().isChecked()).toBe(false);
    const box = await notice.region().boundingBox();
    expect(box?.width).toBe(500);
    expect(await seriousViolations(page)).toEqual([]);

    await notice.nonEssential().check();
    await notice.save().click();
    await notice.region().waitFor({ state: 'detached' });
    expect(await readState(page, 'parla.unauthorizedCookieTypesConsent')).toEqual([
      'essential',
      'non_essential',
    ]);
    await page.reload();
    await login.heading().waitFor();
    expect(await notice.region().count()).toBe(0);

    await login.logIn(user.email, user.password);
    await new AppShell(page).waitForPath('/record');
    await expect.poll(() => readState(page, 'parla.unauthorizedCookieTypesConsent')).toBeNull();
    expect((await consentsOf(user.email)).cookies_consent_types).toEqual(['essential', 'non_essential']);
    expect(await notice.region().count()).toBe(0);
  });

  it('after sign-in shows for a user without a saved choice, and saves it on the server', async () => {
    const user = await server.signUp({ cookies_consent_types: undefined });
    await seedSession(context, user);
    await page.goto('/menu');
    const notice = new CookieNotice(page);
    await notice.region().waitFor();
    await notice.save().click();
    // The notice goes as the choice is sent; the server has it a moment later.
    await notice.region().waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await consentsOf(user.email)).cookies_consent_types)
      .toEqual(['essential']);
    await page.reload();
    await new MenuPage(page).heading().waitFor();
    expect(await notice.region().count()).toBe(0);
  });
});

describe('terms dialog', () => {
  it('needs the agreement before Accept, then records it', async () => {
    await skipCookieNotice(context);
    const user = await server.signUp({ marketing_consent: undefined });
    await seedSession(context, user);
    await page.goto('/menu');
    const terms = new TermsDialog(page);
    await terms.dialog().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // Unchanged form: Accept stays disabled.
    expect(await terms.accept().isDisabled()).toBe(true);
    await terms.marketing().check();
    expect(await terms.accept().isDisabled()).toBe(true);
    await terms.agree().check();
    expect(await terms.accept().isEnabled()).toBe(true);
    await terms.agree().uncheck();
    await terms.error().waitFor();
    expect(await terms.accept().isDisabled()).toBe(true);

    await terms.agree().check();
    await terms.accept().click();
    await terms.dialog().waitFor({ state: 'detached' });
    const consents = await consentsOf(user.email);
    expect(consents.marketing_consent).toBe(true);
    expect(consents.accepted_tos_at).not.toBeNull();
    await page.reload();
    await new MenuPage(page).heading().waitFor();
    expect(await terms.dialog().count()).toBe(0);
  });
});

describe('network', () => {
  it('goes to /no_internet when a call gets no response, and back when online', async () => {
    await skipCookieNotice(context);
    const user = await server.signUp();
    await seedSession(context, user);
    await page.goto('/contact_us');
    await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
    // The page's own background calls are done: the send is the call that goes unanswered.
    await page.waitForLoadState('networkidle');
    const shell = new AppShell(page);

    await context.setOffline(true);
    await shell
      .toasts()
      .filter({ hasText: 'You are offline. Restore your internet connection to use Parla' })
      .waitFor();
    await page.getByLabel('Your message').fill('The app is great');
    await page.getByRole('button', { name: 'Send message' }).click();
    await shell.waitForPath(/^\/no_internet\?online_redirect=/);
    expect(new URL(page.url()).searchParams.get('online_redirect')).toBe('/contact_us');
    await page.getByRole('heading', { level: 1, name: 'No connection' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await context.setOffline(false);
    await shell.toasts().filter({ hasText: 'You are back online.' }).waitFor();
    await shell.waitForPath('/contact_us');
  });

  it('a screen that cannot load while offline also goes to /no_internet', async () => {
    await skipCookieNotice(context);
    const user = await server.signUp();
    await seedSession(context, user);
    const menu = new MenuPage(page);
    await menu.goto();
    await page.waitForLoadState('networkidle');
    const shell = new AppShell(page);
    await context.setOffline(true);
    await menu.link('Integrations').click();
    await shell.waitForPath(/^\/no_internet/);
    expect(new URL(page.url()).searchParams.get('online_redirect')).toBe('/integrations');
    // Back online, the page loads afresh (a failed module stays failed in the old page).
    await context.setOffline(false);
    await page.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor({ timeout: 20_000 });
  });
});

describe('error screen', () => {
  it('reloads once for a chunk that fails to load, then shows the fallback with Reload', async () => {
    await skipCookieNotice(context);
    const user = await server.signUp();
    await seedSession(context, user);
    const menu = new MenuPage(page);
    await menu.goto();
    await page.route('**/assets/contact-us-*.js', (route) => route.abort());
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });
    const requests = recordRequests(page);

    await menu.link('Contact us').click();
    const fallback = page.getByRole('heading', { level: 1, name: 'Something went wrong' });
    await fallback.waitFor();
    // One automatic reload happened; the second failure within 60 s shows the screen.
    expect(loads).toBe(1);
    await page
      .getByText(/dynamically imported module/)
      .first()
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The Reload button reloads the page; with the chunk back, the page works.
    await page.unroute('**/assets/contact-us-*.js');
    await page.getByRole('button', { name: 'Reload page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
    expect(loads).toBe(2);
    expect(requests.some((request) => request.path === '/logsBatch')).toBe(true);
  });
});
