/** The duration rules of spec section 9 for one take, in seconds. */
export const TAKE_RULES = {
  /** Less speech than this is a slip of the button, not a take. */
  ignoreBelow: 0.15,
  /** Expected speaking time per character of the phrase. */
  perCharacter: 0.04,
  /** The expected length is never below this… */
  minExpected: 1,
  /** …nor above this. */
  maxExpected: 8,
  /** The server refuses longer takes. */
  serverMaximum: 20,
} as const;

/** How long saying this phrase is expected to take, in seconds. */
export function expectedSeconds(phrase: string): number {
  const raw = phrase.trim().length * TAKE_RULES.perCharacter;
  return Math.min(TAKE_RULES.maxExpected, Math.max(TAKE_RULES.minExpected, raw));
}

/**
 * When recording stops by itself: people with slow speech get three times the expected
 * length, and never more than the server keeps.
 */
export function recordingLimitSeconds(phrase: string): number {
  return Math.min(TAKE_RULES.serverMaximum, 3 * expectedSeconds(phrase) + 2);
}

export type TakeVerdict = { ok: true } | { ok: false; reason: 'no_speech' | 'too_long' };

/** Whether a recorded take is worth uploading, from its speech time and total length. */
export function judgeTake(speechSeconds: number, totalSeconds: number): TakeVerdict {
  if (speechSeconds < TAKE_RULES.ignoreBelow) return { ok: false, reason: 'no_speech' };
  if (totalSeconds > TAKE_RULES.serverMaximum) return { ok: false, reason: 'too_long' };
  return { ok: true };
}
