import { mkdirSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';

export interface LaunchOptions {
  /** A WAV file Chromium plays, looped, as the microphone; permission is granted without asking. */
  fakeMicrophoneWav?: string;
}

/** Debian's Chromium, flags for a container without a GPU or sandbox, and no calls home. */
export function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const microphone = options.fakeMicrophoneWav
    ? [
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${options.fakeMicrophoneWav}`,
        '--autoplay-policy=no-user-gesture-required',
      ]
    : [];
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...microphone,
    ],
  });
}

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

/**
 * With SCREENSHOTS=1, the page as it is now at phone and desktop width, full length, into
 * `screenshots/` to be looked at; `atEachWidth` runs a check there too. The page is left
 * at desktop width. Without SCREENSHOTS this does nothing, so tests stay fast.
 */
export async function saveScreenshots(page: Page, name: string, atEachWidth?: () => Promise<void>) {
  if (process.env.SCREENSHOTS !== '1') return;
  const dir = new URL('../../screenshots/', import.meta.url).pathname;
  mkdirSync(dir, { recursive: true });
  for (const [width, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `${dir}${name}-${width}.png`, fullPage: true, animations: 'disabled' });
    await atEachWidth?.();
  }
  await page.setViewportSize(DESKTOP);
}

/** A fresh browser profile on the test server; service workers off unless a test asks for them. */
export async function newContext(browser: Browser, baseURL: string, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({
    baseURL,
    viewport: DESKTOP,
    serviceWorkers: 'block',
    locale: 'en-US',
    reducedMotion: 'reduce',
    ...options,
  });
  context.setDefaultTimeout(10_000);
  return context;
}

/** Marks the cookie notice as answered before any page loads, for tests about something else. */
export async function skipCookieNotice(context: BrowserContext) {
  await context.addInitScript(() => {
    if (!localStorage.getItem('parla.unauthorizedCookieTypesConsent')) {
      localStorage.setItem('parla.unauthorizedCookieTypesConsent', JSON.stringify(['essential']));
    }
  });
}

export interface AxeViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: string[];
}

/** Serious and critical accessibility violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    // In the page itself, not finished in a blank page opened for each check (the app has no
    // frames from elsewhere), and nodes listed for violations alone: a screen's check takes
    // about half the time.
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      // What axe measured (colours, ratio) makes a failure readable without a rerun.
      nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
    }));
}
