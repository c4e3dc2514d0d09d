import type { SourceTracking } from '@parla/contract';

const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign'] as const;

/**
 * Splits the address into the source tracking it carries (utm_* and an outside referrer)
 * and the address without the utm_* parameters.
 */
export function extractSourceTracking(
  href: string,
  referrer: string,
): { tracking: SourceTracking | null; cleanedHref: string } {
  const url = new URL(href);
  const tracking: SourceTracking = {};
  for (const key of UTM_KEYS) {
    const value = url.searchParams.get(key);
    if (value) tracking[key] = value.slice(0, 200);
    url.searchParams.delete(key);
  }
  if (referrer) {
    try {
      if (new URL(referrer).origin !== url.origin) tracking.referrer = referrer.slice(0, 2000);
    } catch {
      // Not a URL: ignore it.
    }
  }
  const cleanedHref = `${url.pathname}${url.search}${url.hash}`;
  return { tracking: Object.keys(tracking).length > 0 ? tracking : null, cleanedHref };
}
