import type { RecognitionResult } from '@parla/contract';

/**
 * The recordings of results recognised in the browser: the server names one only once its
 * upload is stored, after the result has been shown (and spoken). Until then the result has
 * no `recording_id`, and an answer to it waits for the upload.
 */
const keeping = new WeakMap<RecognitionResult, Promise<string | null>>();

/** `result`'s recording is being uploaded; `id` resolves with its id, or null if it was not kept. */
export function keepingRecording(result: RecognitionResult, id: Promise<string | null>): void {
  keeping.set(result, id);
}

/** Whether `result` has, or may soon have, a kept recording an answer can teach from. */
export function mayBeKept(result: RecognitionResult): boolean {
  return Boolean(result.recording_id) || keeping.has(result);
}

/** The id of `result`'s kept recording once known; null when nothing was kept. */
export function keptRecordingId(result: RecognitionResult): Promise<string | null> {
  if (result.recording_id) return Promise.resolve(result.recording_id);
  return keeping.get(result) ?? Promise.resolve(null);
}
