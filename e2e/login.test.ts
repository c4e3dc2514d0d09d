import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AppShell } from './pages/app-shell.js';
import { LoginPage } from './pages/login-page.js';
import { MenuPage } from './pages/menu-page.js';
import { seriousViolations } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import type { TestServer } from './support/server.js';
import { readState, recordRequests, seedSession } from './support/session.js';

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness));

describe('login', () => {
  it('signs up through the API, logs in on the real page and sees the signed-in app', async () => {
    const user = await server.signUp();
    const login = new LoginPage(page);
    await login.goto();
    expect(await seriousViolations(page)).toEqual([]);
    await login.logIn(user.email, user.password);

    const shell = new AppShell(page);
    // A new user has no model and no saved mode: the launcher sends them to /record.
    await shell.waitForPath('/record');
    await shell.heading().filter({ hasText: 'Record' }).waitFor();
    await shell.menuButton().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('sends a signed-out visitor to /login with login_redirect, and back there after login', async () => {
    const user = await server.signUp();
    await page.goto('/settings/audio?tab=1');
    const shell = new AppShell(page);
    await shell.waitForPath(/^\/login\?login_redirect=/);
    expect(new URL(page.url()).searchParams.get('login_redirect')).toBe('/settings/audio?tab=1');
    await new LoginPage(page).logIn(user.email, user.password);
    await shell.waitForPath('/settings/audio');
    await page.getByRole('heading', { level: 1, name: 'Audio settings' }).waitFor();
  });

  it('shows wrong credentials without leaving the page', async () => {
    const user = await server.signUp();
    const login = new LoginPage(page);
    await login.goto();
    await login.logIn(user.email, 'not the password 1');
    await expect(login.alert().textContent()).resolves.toMatch(/password/i);
    expect(new AppShell(page).path()).toBe('/login');
  });

  it('keeps /login for signed-out users: a signed-in user goes to the page of the saved mode', async () => {
    const user = await server.signUp();
    await seedSession(context, user, { recognitionMode: 'dictate' });
    await page.goto('/login');
    await new AppShell(page).waitForPath('/dictate');
  });

  it('refreshes an expired access token and carries on', async () => {
    const user = await server.signUp();
    await seedSession(context, user);
    await page.goto('/menu');
    await new MenuPage(page).heading().waitFor();
    // Background calls of the page are done: the next call is the one the test makes.
    await page.waitForLoadState('networkidle');
    const before = await readState<{ refreshToken: string }>(page, 'parla.session');
    // The access token goes bad (as after expiry); the next call gets 401 and refreshes.
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('parla.session') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('parla.session', JSON.stringify({ ...session, accessToken: 'expired' }));
    });
    const requests = recordRequests(page);
    // The profile is not cached yet: opening it calls the API.
    await page.getByRole('main').getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await expect(page.getByLabel('Your name').inputValue()).resolves.toBe('Alex Rivera');
    const after = await readState<{ refreshToken: string; accessToken: string }>(page, 'parla.session');
    expect(after?.refreshToken).not.toBe(before?.refreshToken);
    expect(after?.accessToken).not.toBe('expired');
    expect(requests.filter((request) => request.path === '/refreshAccessToken')).toHaveLength(1);
  });

  it('two tabs that need a refresh at once spend the refresh token only once', async () => {
    const user = await server.signUp();
    await seedSession(context, user);
    const other = await context.newPage();
    for (const tab of [page, other]) {
      await tab.goto('/menu');
      await new MenuPage(tab).heading().waitFor();
      await tab.waitForLoadState('networkidle');
    }
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('parla.session') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('parla.session', JSON.stringify({ ...session, accessToken: 'expired' }));
    });
    const refreshes: string[] = [];
    context.on('request', (request) => {
      if (request.url().endsWith('/refreshAccessToken')) refreshes.push(request.url());
    });
    await Promise.all([page, other].map((tab) => new MenuPage(tab).link('Profile').click()));
    for (const tab of [page, other]) {
      await tab.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      await expect(tab.getByLabel('Your name').inputValue()).resolves.toBe('Alex Rivera');
    }
    expect(refreshes).toHaveLength(1);
    expect(await readState(page, 'parla.session')).not.toBeNull();
  });

  it('logs out without a log event when the refresh is refused', async () => {
    const user = await server.signUp();
    await seedSession(context, user);
    await page.goto('/menu');
    await new MenuPage(page).heading().waitFor();
    // Background calls of the page are done: the next call is the one the test makes.
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('parla.session') ?? '{}') as Record<string, unknown>;
      localStorage.setItem(
        'parla.session',
        JSON.stringify({ ...session, accessToken: 'expired', refreshToken: 'revoked' }),
      );
    });
    const requests = recordRequests(page);
    await page.getByRole('main').getByRole('link', { name: 'Profile', exact: true }).click();
    await new AppShell(page).waitForPath(/^\/login/);
    expect(new URL(page.url()).searchParams.get('login_redirect')).toBe('/settings/profile');
    expect(requests.some((request) => request.path === '/app/logAuthEvent')).toBe(false);
    expect(await readState(page, 'parla.session')).toBeNull();
  });

  it('logout sends the event and clears tokens, cached data and browser settings', async () => {
    const user = await server.signUp();
    await seedSession(context, user, {
      recognitionMode: 'speak',
      lastOpenedTab: '/speak',
      voicePlaybackSpeed: 1,
    });
    const menu = new MenuPage(page);
    await menu.goto();
    await page.getByText(user.email).waitFor();
    const requests = recordRequests(page);
    await menu.logout().click();
    await new AppShell(page).waitForPath('/login');
    expect(
      requests.some((request) => request.path === '/app/logAuthEvent' && request.body?.includes('logout')),
    ).toBe(true);
    const keys = await page.evaluate(() =>
      Object.keys(localStorage).filter((key) => key.startsWith('parla.')),
    );
    expect(keys.filter((key) => key !== 'parla.unauthorizedCookieTypesConsent')).toEqual([]);
    // The session is gone on the server too: the old refresh token is refused.
    const refreshed = await fetch(`${server.url}/refreshAccessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: user.session.refresh_token }),
    });
    expect(refreshed.status).toBe(401);
    // Back navigation does not show the private page again.
    await page.goto('/menu');
    await new AppShell(page).waitForPath('/login');
  });

  it('resets a forgotten password with the emailed code and signs in', async () => {
    const user = await server.signUp();
    const login = new LoginPage(page);
    await login.goto();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email address').fill(user.email);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByLabel('6-digit code').waitFor();
    const email = server.mailer.sent.filter((sent) => sent.to === user.email).at(-1);
    const code = /\b(\d{6})\b/.exec(email?.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Check the code' }).click();
    await page.getByLabel(/^New password\W*$/).fill('a new voice 2026');
    await page.getByLabel('New password again').fill('a new voice 2026');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await new AppShell(page).waitForPath('/record');

    // The new password works on the login page; the old one does not.
    await new MenuPage(page).goto();
    await new MenuPage(page).logout().click();
    await login.heading().waitFor();
    // A logout the user asked for does not offer to return to the page they left.
    expect(new URL(page.url()).search).toBe('');
    await login.logIn(user.email, user.password);
    await login.alert().waitFor();
    await login.email().fill(user.email);
    await login.password().fill('a new voice 2026');
    await login.submit().click();
    await new AppShell(page).waitForPath('/record');
  });

  it('the meeting sub-app has its own login that leads back to /webex', async () => {
    const user = await server.signUp();
    await page.goto('/webex');
    const shell = new AppShell(page);
    await shell.waitForPath('/webex/login');
    await new LoginPage(page).logIn(user.email, user.password);
    await shell.waitForPath('/webex');
    await page.getByRole('heading', { level: 1, name: 'Webex captions' }).waitFor();
    await page.goto('/webex/guest');
    await page.getByRole('heading', { level: 1, name: 'Meeting captions' }).waitFor();
  });

  it('shows the reason and details of a legal restriction', async () => {
    const user = await server.signUp({ country: 'US', region_code: 'NY' });
    const restricted = server.services.config.restrictedRegions;
    restricted.push('US-NY');
    try {
      const login = new LoginPage(page);
      await login.goto();
      await login.logIn(user.email, user.password);
      const alert = page.getByRole('alert').filter({ hasText: 'Sign-in is not available where you live' });
      await alert.waitFor();
      await expect(alert.textContent()).resolves.toContain('because of local law');
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      restricted.splice(restricted.indexOf('US-NY'), 1);
    }
  });
});
