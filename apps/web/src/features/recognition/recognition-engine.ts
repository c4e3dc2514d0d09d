import type { RecognitionResult, SetOptionsPayload } from '@parla/contract';
import type { RecognitionEvent } from './recognition-state';

/** What an engine reports: state machine events, results, and the model version it loaded. */
export interface EngineCallbacks {
  dispatch(event: RecognitionEvent): void;
  onResult(result: RecognitionResult): void;
  onModelReady?(version: number | undefined): void;
}

/**
 * A recogniser the pages talk to: the server over the socket, or the local worker. Both take
 * the microphone's 16 kHz 16-bit chunks and answer with the same events and results.
 */
export interface RecognitionEngine {
  /** Connects (or loads the model); safe to call again after `dispose`-free stops. */
  start(): void;
  /** Options for streams started afterwards. */
  setOptions(options: SetOptionsPayload): void;
  /** One chunk of the live stream. */
  sendChunk(samples: Int16Array): void;
  /** The live stream ends (press-to-talk released): the open utterance gets its result. */
  endStream(): void;
  /** Connect again now (after a consent update or when the user asks). */
  reconnect(): void;
  /** The person's profile has a newer version than the one answering. */
  profileChanged(): void;
  dispose(): void;
}
