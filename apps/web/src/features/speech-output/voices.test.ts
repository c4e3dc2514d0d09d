import { describe, expect, it } from 'vitest';
import { pickVoice } from './voices';

const voices = [
  { id: 'de-DE-female', name: 'Deutsch', locale: 'de-DE', gender: 'female' as const },
  { id: 'en-GB-male', name: 'English (UK)', locale: 'en-GB', gender: 'male' as const },
  { id: 'en-US-female', name: 'English (US)', locale: 'en-US', gender: 'female' as const },
];

describe('pickVoice', () => {
  it('keeps the chosen voice while the server has it', () => {
    expect(pickVoice(voices, 'en-GB-male', 'en-US')?.id).toBe('en-GB-male');
  });
  it('falls back to the language, then its family, then any voice', () => {
    expect(pickVoice(voices, 'gone', 'en-US')?.id).toBe('en-US-female');
    expect(pickVoice(voices.slice(0, 2), null, 'en-US')?.id).toBe('en-GB-male');
    expect(pickVoice(voices.slice(0, 1), null, 'fr-FR')?.id).toBe('de-DE-female');
  });
});
