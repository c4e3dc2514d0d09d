import type { Voice } from '@parla/contract';

/** The voice to speak with: the chosen one if the server still has it, else one of the language. */
export function pickVoice(voices: readonly Voice[], chosen: string | null | undefined, language: string) {
  return (
    voices.find((voice) => voice.id === chosen) ??
    voices.find((voice) => voice.locale === language) ??
    voices.find((voice) => voice.locale.startsWith(language.slice(0, 2))) ??
    voices[0]
  );
}
