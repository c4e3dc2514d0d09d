import {
  SOCKET_AUTH_FAILED_MESSAGE,
  SOCKET_ERROR_CODES,
  type RoomNoiseCause,
  type SocketErrorPayload,
  type StreamOutcome,
} from '@parla/contract';

/** Connection of spec section 4: connected once the transport is up, ready on `connection_ready`. */
export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected' | 'ready';

/** Model load status of spec section 4; `unknown` until the server (or the local worker) says. */
export type ModelStatus =
  'unknown' | 'model_missing' | 'model_loading' | 'model_loading_error' | 'model_ready';

/** A problem the page shows until it passes; `code` selects the text. */
export type RecognitionProblem =
  | { code: 'consents_required' }
  | { code: 'signed_out' }
  | { code: 'already_streaming' }
  | { code: 'server'; message: string }
  | { code: 'local_failed'; message: string };

export interface RecognitionState {
  connection: ConnectionStatus;
  model: ModelStatus;
  /** Server message with the last model status (why it is missing or failed). */
  modelMessage: string | null;
  /** Partial text of the utterance being spoken; empty between utterances. */
  partial: string;
  /** Audio was sent and its result has not arrived yet. */
  processing: boolean;
  /** What makes the room too loud to understand the person over, while it does. */
  drownedBy: RoomNoiseCause | null;
  /** The last stream ended with nothing understood, and why; cleared when listening again. */
  missed: Exclude<StreamOutcome, 'recognised'> | null;
  problem: RecognitionProblem | null;
}

export const initialRecognitionState: RecognitionState = {
  connection: 'disconnected',
  model: 'unknown',
  modelMessage: null,
  partial: '',
  processing: false,
  drownedBy: null,
  missed: null,
  problem: null,
};

export type RecognitionEvent =
  | { type: 'connecting' }
  | { type: 'connected' }
  | { type: 'connection_ready' }
  | { type: 'disconnected' }
  | { type: 'model_status'; status: Exclude<ModelStatus, 'unknown'>; message?: string | undefined }
  | { type: 'listening_started' }
  | { type: 'audio_sent' }
  | { type: 'partial'; text: string }
  | { type: 'final' }
  | { type: 'stream_ended'; outcome: StreamOutcome }
  | { type: 'processing_timeout' }
  | { type: 'room_noise'; tooLoud: boolean; cause: RoomNoiseCause }
  | { type: 'problem'; problem: RecognitionProblem | null };

/** The recognition state machine: pure, so every transition is unit-tested. */
export function recognitionReducer(state: RecognitionState, event: RecognitionEvent): RecognitionState {
  switch (event.type) {
    case 'connecting':
      return { ...state, connection: 'connecting' };
    case 'connected':
      return {
        ...state,
        connection: 'connected',
        problem: state.problem?.code === 'signed_out' ? null : state.problem,
      };
    case 'connection_ready':
      // A fresh session has no profile loaded until select_provider answers.
      return { ...state, connection: 'ready', model: 'unknown', modelMessage: null, problem: null };
    case 'disconnected':
      // What was recognised stays on the page; what was in flight will not come back.
      return {
        ...state,
        connection: 'disconnected',
        partial: '',
        processing: false,
        drownedBy: null,
        missed: null,
      };
    case 'model_status':
      return { ...state, model: event.status, modelMessage: event.message ?? null };
    case 'listening_started':
      return state.missed ? { ...state, missed: null } : state;
    case 'audio_sent':
      return state.processing ? state : { ...state, processing: true };
    case 'partial':
      // The server sends the whole hypothesis so far; it grows until the final.
      return { ...state, partial: event.text };
    case 'final':
      return { ...state, partial: '', processing: false, missed: null };
    case 'stream_ended':
      // No result is coming: the flag clears now rather than at the timeout.
      return {
        ...state,
        partial: '',
        processing: false,
        missed: event.outcome === 'recognised' ? null : event.outcome,
      };
    case 'processing_timeout':
      return { ...state, processing: false };
    case 'room_noise':
      return { ...state, drownedBy: event.tooLoud ? event.cause : null };
    case 'problem':
      return { ...state, problem: event.problem };
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

/** Streaming is allowed only when connected, ready and the model is ready (spec section 4). */
export function canStream(state: RecognitionState): boolean {
  return state.connection === 'ready' && state.model === 'model_ready';
}

/** Processing flag timeout: 10 s plus the larger of twice the audio length and 4 s (spec section 9). */
export function processingTimeoutMs(audioSeconds: number): number {
  return 10_000 + Math.max(2 * audioSeconds * 1000, 4_000);
}

/** Audio after the last result shorter than this (0.3 s at 16 kHz) cannot hold another utterance. */
export const MIN_PENDING_SAMPLES = 4_800;

/** Delay before reconnecting after a server error that closes the session (spec section 8). */
export const ERROR_RECONNECT_DELAY_MS = 10_000;

/** What the client does about a socket error or a refused connection. */
export type ErrorReaction =
  | { action: 'reauthenticate_and_reconnect'; delayMs: number }
  | { action: 'reconnect'; delayMs: number; problem: RecognitionProblem }
  | { action: 'stop'; problem: RecognitionProblem }
  | { action: 'show'; problem: RecognitionProblem };

/** The error catalogue of spec section 8 as decisions. */
export function reactToSocketError(error: SocketErrorPayload): ErrorReaction {
  if (error.code === SOCKET_ERROR_CODES.FAILED_TO_LOGIN)
    return { action: 'reauthenticate_and_reconnect', delayMs: ERROR_RECONNECT_DELAY_MS };
  if (error.code === SOCKET_ERROR_CODES.ALREADY_STREAMING)
    return { action: 'reconnect', delayMs: ERROR_RECONNECT_DELAY_MS, problem: { code: 'already_streaming' } };
  if (error.code === SOCKET_ERROR_CODES.CONSENTS_REQUIRED)
    return { action: 'stop', problem: { code: 'consents_required' } };
  return { action: 'show', problem: { code: 'server', message: error.message } };
}

/** A refused connection: 'authentication failed' means refresh the token and connect again. */
export function reactToConnectError(message: string): 'refresh_and_reconnect' | 'retry' {
  return message === SOCKET_AUTH_FAILED_MESSAGE ? 'refresh_and_reconnect' : 'retry';
}
