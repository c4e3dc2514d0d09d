import { phraseKey } from './profile.js';

/**
 * How a profile learns from use. Utterances the user confirms become takes of the phrase
 * they meant; a retrain keeps every take the user recorded and only the most recent
 * confirmed ones of each phrase, so a profile follows how the user speaks now and stays
 * near the size training and decoding were budgeted for, however much it is used.
 */
export const CONFIRMED_TAKES_PER_PHRASE = 3;

/**
 * Confirmed takes of a phrase a retrain keeps at most while the profile stays within
 * {@link TRAINING_TAKES_BUDGET}: over half a year of speech that changes, six kept the
 * severe synthetic speakers at 98.1 % where three kept them at 97.2 % (docs/decisions/0070,
 * 0071).
 */
export const CONFIRMED_TAKES_MAX = 6;

/** Takes training and decoding are budgeted for (200 phrases of three takes,
 * ARCHITECTURE.md section 7): confirmed takes beyond {@link CONFIRMED_TAKES_PER_PHRASE}
 * are kept only while a profile holds no more. */
export const TRAINING_TAKES_BUDGET = 600;

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
 * imported take, the last {@link CONFIRMED_TAKES_PER_PHRASE} confirmed ones of each phrase
 * and the last {@link UNKNOWN_TAKES_KEPT} marked as none of them; then, while the profile
 * holds fewer than `budget` takes, older confirmed ones up to `confirmedMax` a phrase, the
 * newest first. Order is kept.
 */
export function takesForTraining<T extends TakeOrigin>(
  takes: readonly T[],
  {
    confirmedPerPhrase = CONFIRMED_TAKES_PER_PHRASE,
    confirmedMax = CONFIRMED_TAKES_MAX,
    budget = TRAINING_TAKES_BUDGET,
  } = {},
): T[] {
  const confirmedSeen = new Map<string, number>();
  const keep = new Array<boolean>(takes.length).fill(false);
  // Confirmed takes past the first few of their phrase, newest first: kept while room is left.
  const extra: number[] = [];
  for (let i = takes.length - 1; i >= 0; i--) {
    const take = takes[i] as T;
    if (!take.confirmed) {
      keep[i] = true;
      continue;
    }
    const key = phraseKey(take);
    const newer = confirmedSeen.get(key) ?? 0;
    confirmedSeen.set(key, newer + 1);
    if (take.unknown === true) keep[i] = newer < UNKNOWN_TAKES_KEPT;
    else if (newer < confirmedPerPhrase) keep[i] = true;
    else if (newer < confirmedMax) extra.push(i);
  }
  let room = budget - keep.filter(Boolean).length;
  for (const i of extra) {
    if (room <= 0) break;
    keep[i] = true;
    room--;
  }
  return takes.filter((_, i) => keep[i]);
}
