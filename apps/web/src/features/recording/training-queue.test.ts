import { describe, expect, it } from 'vitest';
import { queuePosition } from './training-queue';

const phrases = [
  { id: 'a', text: 'Yes', takes: 3 },
  { id: 'b', text: 'No', takes: 1 },
  { id: 'c', text: 'Help', takes: 0 },
];

describe('queuePosition', () => {
  it('starts at the first phrase short of takes, counting only phrases that need some', () => {
    expect(queuePosition(phrases, new Map())).toEqual({ phrase: phrases[1], take: 2, index: 1, count: 2 });
  });

  it('moves on as takes are saved, and ends when every phrase has enough', () => {
    expect(queuePosition(phrases, new Map([['b', 2]]))).toMatchObject({
      phrase: { id: 'c' },
      take: 1,
      index: 2,
    });
    expect(
      queuePosition(
        phrases,
        new Map([
          ['b', 2],
          ['c', 3],
        ]),
      ),
    ).toBeNull();
  });

  it('has nothing to do without phrases', () => {
    expect(queuePosition([], new Map())).toBeNull();
  });
});
