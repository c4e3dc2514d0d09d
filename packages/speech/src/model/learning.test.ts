import { describe, expect, it } from 'vitest';
import { CONFIRMED_TAKES_PER_PHRASE, takesForTraining } from './learning.js';

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

  it('keeps recorded takes however many there are', () => {
    const many = Array.from({ length: 12 }, (_, i) => take('help me', false, i));
    expect(takesForTraining(many)).toHaveLength(12);
    expect(takesForTraining([])).toEqual([]);
  });
});
