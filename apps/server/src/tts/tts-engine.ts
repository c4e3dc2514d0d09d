import type { Voice } from '@parla/contract';

/** Mono 16-bit speech and its sample rate. */
export interface SpeechAudio {
  samples: Int16Array;
  sampleRate: number;
}

/** A speech synthesizer with the voices it ships; nothing is fetched at run time. */
export interface TtsEngine {
  readonly name: string;
  readonly voices: readonly Voice[];
  /** Speaks the text with one of this engine's voices. */
  synthesize(text: string, voiceId: string): Promise<SpeechAudio>;
}
