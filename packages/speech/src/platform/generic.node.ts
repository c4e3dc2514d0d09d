import type { RecogniserFactory } from '../eval/evaluate.js';

/** Placeholder until the generic path lands. */
export function genericFactory(): Promise<RecogniserFactory> {
  return Promise.reject(new Error('generic path not built yet'));
}
