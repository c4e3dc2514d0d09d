/** Takes each phrase gets in a recording session: enough for a first profile (spec tutorial). */
export const TAKES_PER_PHRASE = 3;

export interface QueuePhrase {
  id: string;
  text: string;
  takes: number;
}

export interface QueuePosition {
  phrase: QueuePhrase;
  /** 1-based take number of the phrase now being recorded. */
  take: number;
  /** 1-based position among the phrases that needed takes when the session began. */
  index: number;
  count: number;
}

/**
 * Where a recording session is: the phrases that needed takes when it began, in order,
 * and the first of them still short of takes, counting what was saved in this session.
 */
export function queuePosition(
  phrases: readonly QueuePhrase[],
  savedThisSession: ReadonlyMap<string, number>,
): QueuePosition | null {
  const needing = phrases.filter((phrase) => phrase.takes < TAKES_PER_PHRASE);
  for (const [index, phrase] of needing.entries()) {
    const done = phrase.takes + (savedThisSession.get(phrase.id) ?? 0);
    if (done < TAKES_PER_PHRASE) return { phrase, take: done + 1, index: index + 1, count: needing.length };
  }
  return null;
}
