import { phraseKey } from './profile.js';

/**
 * How a profile learns from use. Utterances the user confirms become takes of the phrase
 * they meant; a retrain keeps every take the user recorded and only the most recent
 * confirmed ones of each phrase, so a profile follows how the user speaks now and stays
 * the size training and decoding were budgeted for, however much it is used.
 */
export const CONFIRMED_TAKES_PER_PHRASE = 3;

/** Utterances marked as none of the user's phrases that a retrain keeps, the latest first:
 * enough for the few unknown phrases a person keeps saying, few enough to cost little. */
export const UNKNOWN_TAKES_KEPT = 20;

/** Confirmed utterances that gather before a retrain: profile versions move in steps worth announcing. */
export const CONFIRMATIONS_PER_RETRAIN = 5;

/** Phrases the app offers when an answer is wrong or was rejected ("Did you say ...?"). */
export const CORRECTION_CHOICES = 3;

/**
 * The phrases a person can pick after a result: its alternatives other than the answer
 * given, each once, best first. Picking one confirms the utterance as that phrase, so a
 * rejected or wrong utterance can teach the profile as much as a right one.
 */
export function correctionChoices(
  result: { text: string | null; alternatives: readonly { text: string }[] },
  count = CORRECTION_CHOICES,
): string[] {
  const choices: string[] = [];
  for (const { text } of result.alternatives) {
    if (choices.length === count) break;
    if (text !== result.text && !choices.includes(text)) choices.push(text);
  }
  return choices;
}

/** What the choice of takes reads: the phrase, and whether the take is a confirmed utterance. */
export interface TakeOrigin {
  text: string;
  confirmed: boolean;
  /** Marked by the user as none of their phrases (always a confirmed utterance). */
  unknown?: boolean;
}

/**
 * The takes a retrain uses, from all of a user's takes oldest first: every recorded or
 * imported take, the last {@link CONFIRMED_TAKES_PER_PHRASE} confirmed ones of each
 * phrase and the last {@link UNKNOWN_TAKES_KEPT} marked as none of them. Order is kept.
 */
export function takesForTraining<T extends TakeOrigin>(
  takes: readonly T[],
  confirmedPerPhrase = CONFIRMED_TAKES_PER_PHRASE,
): T[] {
  const confirmedLeft = new Map<string, number>();
  const keep = new Array<boolean>(takes.length).fill(false);
  for (let i = takes.length - 1; i >= 0; i--) {
    const take = takes[i] as T;
    if (!take.confirmed) {
      keep[i] = true;
      continue;
    }
    const key = phraseKey(take);
    const left = confirmedLeft.get(key) ?? (take.unknown === true ? UNKNOWN_TAKES_KEPT : confirmedPerPhrase);
    if (left > 0) keep[i] = true;
    confirmedLeft.set(key, left - 1);
  }
  return takes.filter((_, i) => keep[i]);
}
