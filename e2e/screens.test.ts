import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  PHONE,
  launchBrowser,
  newContext,
  seriousViolations,
  skipCookieNotice,
  type AxeViolation,
} from './support/browser.js';
import { startServer, type TestServer, type TestUser } from './support/server.js';
import { seedSession } from './support/session.js';

/**
 * Every screen of the app: axe must find no serious or critical violation. The normal run
 * checks the phone width (the tighter layout); with SCREENSHOTS=1 the desktop width is
 * checked too and each screen is saved under screenshots/ to be looked at.
 */
const SCREENSHOT_DIR = new URL('../screenshots/', import.meta.url).pathname;
const takeScreenshots = process.env.SCREENSHOTS === '1';

type Who = 'visitor' | 'fresh-visitor' | 'user' | 'incomplete' | 'locked' | 'terms' | 'broken';

interface Screen {
  name: string;
  path: string;
  who: Who;
  /** Brings the screen into the state worth checking, after the page loaded. */
  prepare?: (page: Page) => Promise<void>;
  /** Set up before the page loads. */
  before?: (page: Page) => Promise<void>;
}

const SCREENS: Screen[] = [
  {
    name: 'login-cookie-notice',
    path: '/login',
    who: 'fresh-visitor',
    prepare: (p) => p.getByRole('region', { name: 'Cookies' }).waitFor(),
  },
  { name: 'login', path: '/login', who: 'visitor' },
  { name: 'sign-up', path: '/sign-up', who: 'visitor' },
  {
    name: 'sign-up-minor',
    path: '/sign-up',
    who: 'visitor',
    prepare: async (p) => {
      await p.getByLabel('Date of birth').fill('2013-05-05');
      await p.getByLabel('Country').selectOption('AU');
      await p.getByLabel('I have a support person who helps me').check();
      await p.getByRole('region', { name: 'Consent of a parent or guardian' }).scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'sign-up-errors',
    path: '/sign-up',
    who: 'visitor',
    prepare: async (p) => {
      await p.getByRole('button', { name: 'Create account' }).click();
      await p.getByText('Enter your email address').waitFor();
    },
  },
  { name: 'reset-password', path: '/reset-password', who: 'visitor' },
  {
    name: 'reset-password-code',
    path: '/reset-password',
    who: 'visitor',
    prepare: async (p) => {
      await p.getByLabel('Email address').fill('someone@example.org');
      await p.getByRole('button', { name: 'Email me a code' }).click();
      await p.getByLabel('6-digit code').waitFor();
    },
  },
  {
    name: 'no-internet',
    path: '/no_internet?online_redirect=%2Fspeak',
    who: 'visitor',
    // The server stays unreachable, so the screen does not go back while it is checked.
    before: async (p) => {
      await p.route('**/health', (route) => route.abort());
    },
  },
  { name: 'no-subscription-signed-out', path: '/no_subscription', who: 'visitor' },
  { name: 'not-found', path: '/this/does/not/exist', who: 'visitor' },
  { name: 'social-callback', path: '/auth/google/callback', who: 'visitor' },
  { name: 'acapella', path: '/auth_acapella', who: 'visitor' },
  { name: 'webex-login', path: '/webex/login', who: 'visitor' },
  { name: 'webex-guest', path: '/webex/guest', who: 'visitor' },
  { name: 'webex-not-found', path: '/webex/nothing', who: 'visitor' },
  {
    name: 'error-fallback',
    path: '/menu',
    who: 'broken',
    before: async (p) => {
      await p.route('**/assets/menu-*.js', (route) => route.abort());
      // A reload already happened within the minute: the screen shows at once.
      await p.addInitScript(() => {
        sessionStorage.setItem('parla.autoReload', JSON.stringify({ chunk_load: Date.now() }));
      });
    },
  },
  { name: 'record', path: '/record', who: 'user' },
  { name: 'record-personal-vocabulary', path: '/record/personal_vocabulary', who: 'user' },
  { name: 'record-shortcut-phrases', path: '/record/shortcut_phrases', who: 'user' },
  { name: 'record-import-samples', path: '/record/import_samples', who: 'user' },
  { name: 'record-tutorial', path: '/record/tutorial', who: 'user' },
  { name: 'record-training', path: '/record/training/default', who: 'user' },
  { name: 'record-notes', path: '/record/notes', who: 'user' },
  { name: 'shortcut-add', path: '/record/shortcut_phrases/add', who: 'user' },
  { name: 'shortcut-item', path: '/record/shortcut_phrases/42', who: 'user' },
  { name: 'shortcut-edit', path: '/record/shortcut_phrases/42/edit', who: 'user' },
  { name: 'vocabulary-add', path: '/record/personal_vocabulary/add', who: 'user' },
  { name: 'vocabulary-item', path: '/record/personal_vocabulary/7', who: 'user' },
  { name: 'vocabulary-edit', path: '/record/personal_vocabulary/7/edit', who: 'user' },
  { name: 'import-manual', path: '/record/import_samples/manual', who: 'user' },
  { name: 'import-apple', path: '/record/import_samples/apple', who: 'user' },
  { name: 'import-relate', path: '/record/import_samples/relate', who: 'user' },
  { name: 'speak', path: '/speak', who: 'user' },
  { name: 'dictate', path: '/dictate', who: 'user' },
  { name: 'menu', path: '/menu', who: 'user' },
  { name: 'mode-picker', path: '/mode_picker', who: 'user' },
  { name: 'integrations', path: '/integrations', who: 'user' },
  { name: 'contact-us', path: '/contact_us', who: 'user' },
  { name: 'subscription', path: '/subscription', who: 'user' },
  { name: 'settings-general', path: '/settings/general', who: 'user' },
  { name: 'settings-audio', path: '/settings/audio', who: 'user' },
  { name: 'settings-profile', path: '/settings/profile', who: 'user' },
  { name: 'settings-extra', path: '/settings/extra', who: 'user' },
  {
    name: 'settings-extra-delete-dialog',
    path: '/settings/extra',
    who: 'user',
    prepare: async (p) => {
      await p.getByRole('button', { name: 'Delete my account…' }).click();
      await p.getByRole('dialog', { name: 'Delete your account?' }).waitFor();
    },
  },
  { name: 'settings-change-password', path: '/settings/change_password', who: 'user' },
  { name: 'webex', path: '/webex', who: 'user' },
  { name: 'profile-setup', path: '/sign-up', who: 'incomplete' },
  { name: 'terms-dialog', path: '/menu', who: 'terms', prepare: (p) => p.getByRole('dialog').waitFor() },
  { name: 'no-subscription', path: '/speak', who: 'locked' },
  { name: 'subscription-locked', path: '/subscription', who: 'locked' },
  { name: 'menu-locked', path: '/menu', who: 'locked' },
];

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  if (takeScreenshots) await mkdir(SCREENSHOT_DIR, { recursive: true });
});
afterAll(async () => {
  await browser.close();
  await server.close();
});

async function userFor(who: Who): Promise<TestUser | null> {
  switch (who) {
    case 'visitor':
    case 'fresh-visitor':
      return null;
    case 'user':
    case 'broken':
      return server.signUp();
    case 'terms':
      return server.signUp({ marketing_consent: undefined });
    case 'incomplete': {
      const user = await server.signUp();
      await server.db
        .updateTable('profiles')
        .set({ native_language: null, country: null })
        .where('user_id', '=', user.session.user.id)
        .execute();
      return user;
    }
    case 'locked': {
      const user = await server.signUp();
      await server.services.subscription.setLockedByEmail(user.email, true);
      return user;
    }
  }
}

const WIDTHS = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const;

for (const [widthName, viewport] of takeScreenshots ? WIDTHS : WIDTHS.slice(0, 1)) {
  describe(`every screen at ${widthName} width`, () => {
    for (const who of [...new Set(SCREENS.map((screen) => screen.who))]) {
      // Every screen of a kind of visitor in one browser profile, each checked by axe: about
      // 100 s for the signed-in user's on two quiet cores, and past 120 s in a loaded CI run.
      it(`${who} screens have no serious accessibility violation`, { timeout: 240_000 }, async () => {
        const user = await userFor(who);
        // One browser profile per kind of visitor, as a person moving through the app.
        const context = await newContext(browser, server.url, {
          viewport,
          ...(widthName === 'phone' ? { isMobile: true, hasTouch: true } : {}),
        });
        if (who !== 'fresh-visitor') await skipCookieNotice(context);
        if (user) await seedSession(context, user);
        const page = await context.newPage();
        const found: Record<string, AxeViolation[]> = {};
        for (const screen of SCREENS.filter((candidate) => candidate.who === who)) {
          await screen.before?.(page);
          await page.goto(screen.path);
          if (who === 'terms') await page.getByRole('dialog').waitFor();
          else await page.getByRole('heading', { level: 1 }).first().waitFor();
          await page.getByText('Loading…').first().waitFor({ state: 'hidden' });
          await screen.prepare?.(page);
          const violations = await seriousViolations(page);
          if (violations.length > 0) found[screen.name] = violations;
          if (takeScreenshots) {
            await page.screenshot({
              path: `${SCREENSHOT_DIR}${screen.name}-${widthName}.png`,
              fullPage: true,
              animations: 'disabled',
            });
          }
        }
        await context.close();
        expect(found).toEqual({});
      });
    }
  });
}
