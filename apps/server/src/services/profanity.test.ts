import { describe, expect, it } from 'vitest';
import { maskProfanities } from './profanity.js';

describe('maskProfanities', () => {
  it('masks whole words only, whatever their case', () => {
    expect(maskProfanities('Oh Shit, the damn door')).toBe('Oh S***, the d*** door');
    expect(maskProfanities('Scrap the classic assessment')).toBe('Scrap the classic assessment');
  });
});
