import type { RecognitionResult } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { questionKey } from './question-key';

const said = (): RecognitionResult => ({
  text: 'good morning',
  confidence: 0.9,
  rejected: false,
  alternatives: [],
  recognition_mode: 'speak',
  duration: 1.2,
  acoustic_model_id: 1,
  confidence_threshold: 0.5,
});

describe('questionKey', () => {
  it('asks afresh about each result, even one alike in every field', () => {
    const first = said();
    const again = said();
    expect(questionKey(first)).not.toBe(questionKey(again));
    expect(questionKey(first)).toBe(questionKey(first));
  });
});
