import { describe, expect, it } from 'vitest';
import {
  CONFIRMED_TAKES_PER_PHRASE,
  CORRECTION_CHOICES,
  correctionChoices,
  takesForTraining,
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
    // "yes" was confirmed four times: the oldest (2) is left out; case and punctuation
    // do not make another phrase.
    expect(takesForTraining(takes).map((t) => t.id)).toEqual([1, 3, 4, 5, 6, 7, 8]);
    expect(takesForTraining(takes, 1).map((t) => t.id)).toEqual([1, 3, 6, 7, 8]);
    expect(takesForTraining(takes, 0).map((t) => t.id)).toEqual([1, 3, 8]);
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
