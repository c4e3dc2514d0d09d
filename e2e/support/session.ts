import type { BrowserContext, Page } from 'playwright-core';
import type { TestUser } from './server.js';

/**
 * Puts a signed-in session into the browser profile before the first page load, as if
 * the user had logged in earlier. Only once: a reload must not bring back spent tokens.
 */
export async function seedSession(
  context: BrowserContext,
  user: TestUser,
  extra: Record<string, unknown> = {},
) {
  const session = {
    accessToken: user.session.access_token,
    refreshToken: user.session.refresh_token,
    userId: user.session.user.id,
    expiresAt: Date.now() + user.session.expires_in * 1000,
  };
  await context.addInitScript(
    ({ session, extra }) => {
      // Shared by the profile's tabs, and outside the app's keys so that logout keeps it.
      if (localStorage.getItem('e2e.seeded')) return;
      localStorage.setItem('e2e.seeded', '1');
      localStorage.setItem('parla.session', JSON.stringify(session));
      for (const [key, value] of Object.entries(extra))
        localStorage.setItem(`parla.${key}`, JSON.stringify(value));
    },
    { session, extra },
  );
}

/** Reads one of the app's localStorage keys as JSON. */
export function readState<T = unknown>(page: Page, key: string): Promise<T | null> {
  return page.evaluate((name) => {
    const raw = localStorage.getItem(name);
    return raw === null ? null : (JSON.parse(raw) as unknown);
  }, key) as Promise<T | null>;
}

/** Every request path the page makes, for asserting what was (not) sent. */
export function recordRequests(page: Page) {
  const requests: { method: string; path: string; body: string | null }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    requests.push({ method: request.method(), path: url.pathname, body: request.postData() });
  });
  return requests;
}
