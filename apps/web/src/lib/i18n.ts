import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE } from '@parla/contract';
import { enUS } from '../locales/en-US';

/** Languages the app is translated into; a new one is a file in src/locales plus a line here. */
export const SUPPORTED_LANGUAGES = { 'en-US': 'English (United States)' } as const;
export type SupportedLanguage = keyof typeof SUPPORTED_LANGUAGES;

export const resources = { 'en-US': { translation: enUS } } as const;

/** The best supported language for the browser's preferences. */
export function pickLanguage(preferred: readonly string[]): SupportedLanguage {
  const supported = Object.keys(SUPPORTED_LANGUAGES) as SupportedLanguage[];
  for (const tag of preferred) {
    const exact = supported.find((language) => language.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const base = supported.find((language) => language.split('-')[0] === tag.split('-')[0]);
    if (base) return base;
  }
  return DEFAULT_LANGUAGE;
}

void i18n.use(initReactI18next).init({
  resources,
  lng: pickLanguage(typeof navigator === 'undefined' ? [] : navigator.languages),
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
});

// Screen readers pick the voice from the page's language.
i18n.on('languageChanged', (language: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
});

export { i18n };
