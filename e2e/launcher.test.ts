import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AppShell } from './pages/app-shell.js';
import { seriousViolations } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import type { TestServer } from './support/server.js';
import { recordRequests, seedSession } from './support/session.js';

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness));

/** Answers the models call with a built acoustic model, so that no training has to run. */
async function withBuiltModel(version = 3) {
  await page.route('**/app/modelsInfo', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        models: [{ version, type: 'acoustic_icefall_pts7s', provider: 'casr', links: {}, modelmeta: {} }],
        recording_state: 'model_built',
      }),
    }),
  );
}

async function launch(state: Record<string, unknown>) {
  const user = await server.signUp();
  await seedSession(context, user, state);
  await page.goto('/');
  return user;
}

describe('launcher', () => {
  it('no model, nothing saved: /record', async () => {
    await launch({});
    await new AppShell(page).waitForPath('/record');
  });

  it('no model: the last opened tab wins', async () => {
    await launch({ lastOpenedTab: '/dictate', recognitionMode: 'speak' });
    await new AppShell(page).waitForPath('/dictate');
  });

  it('built model, last opened tab: that tab', async () => {
    await withBuiltModel();
    await launch({ lastOpenedTab: '/record', recognitionMode: 'speak' });
    await new AppShell(page).waitForPath('/record');
  });

  it('built model, no tab: the page of the saved mode', async () => {
    await withBuiltModel();
    await launch({ recognitionMode: 'speak' });
    const shell = new AppShell(page);
    await shell.waitForPath('/speak');
    await page.getByRole('heading', { level: 1, name: 'Speak' }).waitFor();
  });

  it('built model, no mode saved: the mode picker, which saves the choice', async () => {
    await withBuiltModel();
    await launch({});
    const shell = new AppShell(page);
    await shell.waitForPath('/mode_picker');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: /^Dictate/ }).click();
    await shell.waitForPath('/dictate');
    await page.goto('/');
    await shell.waitForPath('/dictate');
  });

  it('a redirect parameter navigates instead of rendering', async () => {
    const user = await server.signUp();
    await seedSession(context, user);
    await page.goto('/record?redirect=%2Fcontact_us');
    await new AppShell(page).waitForPath('/contact_us');
  });

  it('the catch-all shows a not-found page', async () => {
    await page.goto('/no/such/page');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page.goto('/webex/unknown');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  });
});

describe('profile-updated dialog', () => {
  it('opens when the model version changed, then goes to the page of the mode', async () => {
    await withBuiltModel(4);
    await launch({ recognitionMode: 'dictate', notificationStatus: { acoustic_model_version: '3' } });
    const dialog = page.getByRole('dialog', { name: 'Your voice profile was updated' });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Use Parla' }).click();
    await dialog.waitFor({ state: 'detached' });
    await new AppShell(page).waitForPath('/dictate');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Dictate' }).waitFor();
    expect(await dialog.count()).toBe(0);
  });

  it('does not open the first time a version is seen: it only stores it', async () => {
    await withBuiltModel(1);
    await launch({ recognitionMode: 'speak' });
    await new AppShell(page).waitForPath('/speak');
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('parla.notificationStatus')))
      .toBe('{"acoustic_model_version":"1"}');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});

describe('locked subscription', () => {
  it('goes to /no_subscription everywhere except /, /menu and /subscription', async () => {
    const user = await server.signUp();
    await server.services.subscription.setLockedByEmail(user.email, true);
    await seedSession(context, user);
    const shell = new AppShell(page);

    for (const path of ['/speak', '/record/notes', '/settings/general', '/contact_us']) {
      await page.goto(path);
      await shell.waitForPath('/no_subscription');
    }
    await page.getByRole('heading', { level: 1, name: 'Your subscription is paused' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/menu');
    await page.getByRole('heading', { level: 1, name: 'Menu' }).waitFor();
    expect(shell.path()).toBe('/menu');

    await page.goto('/subscription');
    await page.getByText('Locked', { exact: true }).waitFor();
    expect(shell.path()).toBe('/subscription');

    // The launcher itself opens and loads the subscription afresh; its target is locked.
    const requests = recordRequests(page);
    await page.goto('/');
    await shell.waitForPath('/no_subscription');
    expect(
      requests.filter((request) => request.path === '/app/end_user/subscription_info').length,
    ).toBeGreaterThanOrEqual(2);

    await server.services.subscription.setLockedByEmail(user.email, false);
    await page.goto('/speak');
    await page.getByRole('heading', { level: 1, name: 'Speak' }).waitFor();
  });
});
