import { describe, expect, it } from 'vitest';
import { expectedSeconds, judgeTake, recordingLimitSeconds } from './take-rules';

describe('take rules', () => {
  it('expects 0.04 s a character, between 1 and 8 s', () => {
    expect(expectedSeconds('Yes')).toBe(1);
    expect(expectedSeconds('Could you open the window, please?')).toBeCloseTo(1.36);
    expect(expectedSeconds('x'.repeat(400))).toBe(8);
    expect(expectedSeconds('  Yes  ')).toBe(1);
  });

  it('stops recording by itself well after the expected length, within the server limit', () => {
    expect(recordingLimitSeconds('Yes')).toBe(5);
    expect(recordingLimitSeconds('x'.repeat(400))).toBe(20);
  });

  it('ignores takes with under 0.15 s of speech and refuses over 20 s', () => {
    expect(judgeTake(0.1, 2)).toEqual({ ok: false, reason: 'no_speech' });
    expect(judgeTake(0.15, 2)).toEqual({ ok: true });
    expect(judgeTake(3, 20.5)).toEqual({ ok: false, reason: 'too_long' });
  });
});
