import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { launchBrowser, newContext, skipCookieNotice, type LaunchOptions } from './browser.js';
import { recordPageLog } from './page-log.js';
import { startServer, type TestServer } from './server.js';

export interface PageHarness {
  server: TestServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * One server and one browser per test file, a fresh browser profile and page per test.
 * `bind` receives them whenever they change, so a file can keep plain variables.
 */
export function usePagePerTest(
  bind: (harness: PageHarness) => void,
  options: { answerCookieNotice?: boolean } & LaunchOptions = {},
) {
  const harness = {} as PageHarness;
  beforeAll(async () => {
    [harness.server, harness.browser] = await Promise.all([startServer(), launchBrowser(options)]);
  });
  afterAll(async () => {
    await harness.browser.close();
    await harness.server.close();
  });
  beforeEach(async ({ onTestFailed }) => {
    harness.context = await newContext(harness.browser, harness.server.url);
    const log = await recordPageLog(harness.context);
    onTestFailed(() => {
      console.log(`What the page went through:\n${log.lines().join('\n')}`);
    });
    if (options.answerCookieNotice ?? true) await skipCookieNotice(harness.context);
    harness.page = await harness.context.newPage();
    bind(harness);
  });
  afterEach(async () => {
    await harness.context.close();
  });
}
