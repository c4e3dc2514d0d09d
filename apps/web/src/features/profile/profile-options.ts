/** Native languages offered for recognition, as BCP 47 tags; names come from the browser. */
export const NATIVE_LANGUAGES = [
  'en-US',
  'en-GB',
  'en-AU',
  'en-CA',
  'en-IE',
  'en-IN',
  'en-NZ',
  'en-ZA',
  'es-ES',
  'es-MX',
  'fr-FR',
  'fr-CA',
  'de-DE',
  'it-IT',
  'nl-NL',
  'pt-BR',
  'pt-PT',
  'pl-PL',
  'sv-SE',
  'da-DK',
  'nb-NO',
  'fi-FI',
  'he-IL',
  'ar-SA',
  'hi-IN',
  'ja-JP',
  'ko-KR',
  'zh-CN',
] as const;

export function languageOptions(displayLanguage: string) {
  const names = new Intl.DisplayNames([displayLanguage], { type: 'language' });
  return NATIVE_LANGUAGES.map((tag) => ({ tag, name: names.of(tag) ?? tag }));
}
