import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppShell } from './pages/app-shell.js';
import { LoginPage } from './pages/login-page.js';
import { launchBrowser, newContext, seriousViolations, skipCookieNotice } from './support/browser.js';
import { startServer, type TestServer } from './support/server.js';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.close();
});
beforeEach(async () => {
  context = await newContext(browser, server.url);
  await skipCookieNotice(context);
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

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
});
