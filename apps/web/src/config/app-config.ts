import { APP_ID, APP_NAME, CLIENT_VERSION, DEFAULT_LANGUAGE } from '@parla/contract';

/** What the app knows about itself; the product name is configuration, shown wherever the spec says {product}. */
export const appConfig = {
  productName: import.meta.env.VITE_PRODUCT_NAME ?? 'Parla',
  supportEmail: import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@parla.local',
  appId: APP_ID,
  appName: APP_NAME,
  apiKey: import.meta.env.VITE_APP_API_KEY ?? 'parla-web-app',
  clientVersion: CLIENT_VERSION,
  defaultLanguage: DEFAULT_LANGUAGE,
  /** Same origin in every deployment: the server serves the app. */
  apiBaseUrl: '',
  logFlushIntervalMs: 60_000,
  inactivityTimeoutMs: 60_000,
  autoReloadThrottleMs: 60_000,
  maxToasts: 3,
} as const;

/** App information sent with account calls. */
export function extraAppInfo(): Record<string, string> {
  return { client_version: CLIENT_VERSION, platform: 'web' };
}
