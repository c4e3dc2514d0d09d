import type { RecognitionResult } from '@parla/contract';

const questionKeys = new WeakMap<RecognitionResult, number>();
let lastQuestionKey = 0;

/**
 * The React key of the questions about one result: each result is asked about afresh, even
 * one alike in every field (results recognised in the browser name no recording).
 */
export function questionKey(result: RecognitionResult): number {
  let key = questionKeys.get(result);
  if (key === undefined) {
    key = ++lastQuestionKey;
    questionKeys.set(result, key);
  }
  return key;
}
