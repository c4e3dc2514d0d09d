import { describe, expect, it } from 'vitest';
import {
  CONFIRMED_TAKES_MAX,
  CONFIRMED_TAKES_PER_PHRASE,
  CORRECTION_CHOICES,
  correctionChoices,
  takesForTraining,
  TRAINING_TAKES_BUDGET,
  UNKNOWN_TAKES_KEPT,
} from './learning.js';

const take = (text: string, confirmed: boolean, id: number) => ({ text, confirmed, id });

describe('takesForTraining', () => {
  it('keeps every recorded take and the most recent confirmed ones of each phrase, in order', () => {
    const takes = [
      take('Yes', false, 1),
      take('yes', true, 2),
      take('No', false, 3),
      take('YES!', true, 4),
      take('yes', true, 5),
      take('no', true, 6),
      take('yes', true, 7),
      take('Yes', false, 8),
    ];
    expect(CONFIRMED_TAKES_PER_PHRASE).toBe(3);
    // "yes" was confirmed four times: with room in the budget all four are kept; without,
    // the oldest (2) is left out. Case and punctuation do not make another phrase.
    expect(takesForTraining(takes).map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(takesForTraining(takes, { budget: 0 }).map((t) => t.id)).toEqual([1, 3, 4, 5, 6, 7, 8]);
    const fewer = { confirmedMax: 0, budget: 0 };
    expect(takesForTraining(takes, { ...fewer, confirmedPerPhrase: 1 }).map((t) => t.id)).toEqual([
      1, 3, 6, 7, 8,
    ]);
    expect(takesForTraining(takes, { ...fewer, confirmedPerPhrase: 0 }).map((t) => t.id)).toEqual([1, 3, 8]);
  });

  it('keeps the latest utterances marked unknown, whatever text they carry, apart from the phrases', () => {
    const marked = Array.from({ length: UNKNOWN_TAKES_KEPT + 5 }, (_, i) => ({
      ...take(i % 2 === 0 ? 'yes' : '', true, 100 + i),
      unknown: true,
    }));
    const kept = takesForTraining([take('yes', false, 1), ...marked, take('yes', true, 2)]);
    expect(UNKNOWN_TAKES_KEPT).toBe(20);
    expect(kept.map((t) => t.id)).toEqual([1, ...marked.slice(5).map((t) => t.id), 2]);
  });

  it('keeps up to six confirmed takes a phrase while the profile stays within the budget, the newest first', () => {
    expect([CONFIRMED_TAKES_MAX, TRAINING_TAKES_BUDGET]).toEqual([6, 600]);
    // Eight confirmed takes of "yes", then four of "no", after one recorded take of each.
    const takes = [
      take('yes', false, 1),
      take('no', false, 2),
      ...Array.from({ length: 8 }, (_, i) => take('yes', true, 10 + i)),
      ...Array.from({ length: 4 }, (_, i) => take('no', true, 20 + i)),
    ];
    const ids = (budget: number): number[] => takesForTraining(takes, { budget }).map((t) => t.id);
    // Room for all: six of "yes" (12-17), all four of "no".
    expect(ids(600)).toEqual([1, 2, 12, 13, 14, 15, 16, 17, 20, 21, 22, 23]);
    // The first three of each phrase are kept whatever the budget (8 takes); room for two
    // more goes to the newest older ones: "no" 20, then "yes" 14.
    expect(ids(10)).toEqual([1, 2, 14, 15, 16, 17, 20, 21, 22, 23]);
    expect(ids(8)).toEqual([1, 2, 15, 16, 17, 21, 22, 23]);
    expect(ids(0)).toEqual(ids(8));
  });

  it('counts recorded takes and kept unknown ones against the budget', () => {
    const takes = [
      take('yes', false, 1),
      { ...take('', true, 2), unknown: true },
      ...Array.from({ length: 5 }, (_, i) => take('yes', true, 10 + i)),
    ];
    // 1 recorded + 1 unknown + 3 confirmed = 5; a budget of 6 leaves room for one more.
    expect(takesForTraining(takes, { budget: 6 }).map((t) => t.id)).toEqual([1, 2, 11, 12, 13, 14]);
  });

  it('keeps recorded takes however many there are', () => {
    const many = Array.from({ length: 12 }, (_, i) => take('help me', false, i));
    expect(takesForTraining(many)).toHaveLength(12);
    expect(takesForTraining([])).toEqual([]);
  });
});

describe('correctionChoices', () => {
  const alternatives = (...texts: string[]) => texts.map((text, i) => ({ text, confidence: 1 - i / 10 }));

  it('offers the alternatives other than the answer, each once, best first', () => {
    expect(CORRECTION_CHOICES).toBe(3);
    const result = { text: 'yes', alternatives: alternatives('yes', 'no', 'no', 'help me', 'water', 'tea') };
    expect(correctionChoices(result)).toEqual(['no', 'help me', 'water']);
    expect(correctionChoices(result, 1)).toEqual(['no']);
  });

  it('offers the best alternatives of a rejected result, the first included', () => {
    expect(correctionChoices({ text: null, alternatives: alternatives('no', 'yes') })).toEqual(['no', 'yes']);
    expect(correctionChoices({ text: null, alternatives: [] })).toEqual([]);
  });
});
