import { normaliseText } from './profile.js';

/**
 * How a profile learns from use. Utterances the user confirms become takes of the phrase
 * they meant; a retrain keeps every take the user recorded and only the most recent
 * confirmed ones of each phrase, so a profile follows how the user speaks now and stays
 * the size training and decoding were budgeted for, however much it is used.
 */
export const CONFIRMED_TAKES_PER_PHRASE = 3;

/** Confirmed utterances that gather before a retrain: profile versions move in steps worth announcing. */
export const CONFIRMATIONS_PER_RETRAIN = 5;

/** What the choice of takes reads: the phrase, and whether the take is a confirmed utterance. */
export interface TakeOrigin {
  text: string;
  confirmed: boolean;
}

/**
 * The takes a retrain uses, from all of a user's takes oldest first: every recorded or
 * imported take, and the last {@link CONFIRMED_TAKES_PER_PHRASE} confirmed ones of each
 * phrase. Order is kept.
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
    const key = normaliseText(take.text);
    const left = confirmedLeft.get(key) ?? confirmedPerPhrase;
    if (left > 0) keep[i] = true;
    confirmedLeft.set(key, left - 1);
  }
  return takes.filter((_, i) => keep[i]);
}
