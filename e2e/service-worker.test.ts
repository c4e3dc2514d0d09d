import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, skipCookieNotice } from './support/browser.js';
import { startServer, type TestServer } from './support/server.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.close();
});

describe('service worker', () => {
  it('registers /pwa-sw.js, offers a manifest, and keeps the shell for offline use', async () => {
    const context = await newContext(browser, server.url, { serviceWorkers: 'allow' });
    await skipCookieNotice(context);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    const scriptURL = await page.evaluate(
      async () => (await navigator.serviceWorker.ready).active?.scriptURL,
    );
    expect(new URL(scriptURL ?? '').pathname).toBe('/pwa-sw.js');

    const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as {
      display: string;
      start_url: string;
    };
    expect(manifest).toMatchObject({ display: 'standalone', start_url: '/' });

    // The worker controls the page after a reload; then the shell opens without a network.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await context.close();
  });
});
