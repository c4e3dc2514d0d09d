import { z } from 'zod';

/**
 * Socket events of the recognition server (spec section 7), typed for socket.io's
 * generics on both sides. docs/realtime.md describes the exchange.
 */
export interface SocketAuth {
  token: string;
  refresh_token?: string;
  user_id: string;
}

export interface SocketErrorPayload {
  code?: number;
  message: string;
}

// Error codes, messages and providers are in constants.ts, readable without zod.

export const RECOGNITION_MODES = ['speak', 'dictate'] as const;
export type RecognitionMode = (typeof RECOGNITION_MODES)[number];

export const SelectProviderSchema = z.object({
  provider_id: z.string().max(64).optional(),
  domain_id: z.string().max(64).optional(),
  scenario_id: z.string().max(64).optional(),
  language: z.string().max(16).optional(),
  metadata: z.record(z.string().max(64), z.unknown()).optional(),
  app_build: z.string().max(32).optional(),
  use_streaming_model: z.boolean().optional(),
});
export type SelectProviderPayload = z.infer<typeof SelectProviderSchema>;

export const SetOptionsSchema = z.object({
  recognition_mode: z.enum(RECOGNITION_MODES).optional(),
  /** Seconds of silence that end an utterance (0.1 to 5). */
  streaming_vad_min_silence_length: z.number().min(0.1).max(5).optional(),
  filter_profanities: z.boolean().optional(),
});
export type SetOptionsPayload = z.infer<typeof SetOptionsSchema>;

/** 16 kHz mono 16-bit PCM, little-endian: the client sends 3200 samples (0.2 s) at a time. */
export type AudioSamples = ArrayBuffer | Uint8Array | number[];

export interface RecognitionAlternative {
  text: string;
  confidence: number;
}

export interface RecognitionResult {
  /** The recognised phrase; null when the utterance was none of the user's phrases. */
  text: string | null;
  confidence: number;
  rejected: boolean;
  alternatives: RecognitionAlternative[];
  recognition_mode: RecognitionMode;
  /** Seconds of the utterance. */
  duration: number;
  /** Version of the voice profile that recognised it. */
  acoustic_model_id: number;
  confidence_threshold: number;
  /**
   * The kept recording of this utterance, to confirm what was meant
   * (POST /app/recording/recognition/{id}/confirm); null when nothing is kept.
   */
  recording_id?: string | null;
  /**
   * Parla's own: true when the generic recogniser answered, for a phrase the person has not
   * recorded yet (their profile rejected the utterance); the app can ask them to record it.
   */
  generic?: boolean;
  /**
   * Parla's own: true when the answer is one of the profile's guesses under its confidence
   * threshold, or under the doubt of `doubted`, and the generic recogniser, which knows the
   * person's voice, named the same phrase, or (its first guess only) the speech encoder named
   * it clearly among the person's takes: two recognisers agreeing are surer than either alone.
   */
  seconded?: boolean;
  /**
   * Parla's own: true when the profile accepted the utterance, but with a confidence under
   * 0.75, and the generic recogniser, which knows the person's voice, named neither that
   * phrase, nor another of the profile's guesses, nor a phrase not recorded yet: the answer
   * is withdrawn (`rejected`, `text` null), its phrase first among `alternatives`.
   */
  doubted?: boolean;
}

/** Who answered a result, as its marks: only those set (`generic`, `seconded`, `doubted`). */
export type AnswerMarks = Pick<RecognitionResult, 'generic' | 'seconded' | 'doubted'>;

/**
 * The marks of who answered (see {@link RecognitionResult}) from a recogniser's result, a
 * result sent on or one being kept: a mark not set is left out, as the upload schema wants.
 */
export function answerMarks(result: AnswerMarks): AnswerMarks {
  return {
    ...(result.generic ? { generic: true } : {}),
    ...(result.seconded ? { seconded: true } : {}),
    ...(result.doubted ? { doubted: true } : {}),
  };
}

export interface ModelStatusPayload {
  version?: number;
  message?: string;
}

/** What drowns the person: other voices (a television, people) or steady noise (a fan). */
export const ROOM_NOISE_CAUSES = ['voices', 'noise'] as const;
export type RoomNoiseCause = (typeof ROOM_NOISE_CAUSES)[number];

/**
 * The room is too loud for the person to be understood over it, or has stopped being: the
 * app says so while it holds. Sent when it changes; a stream that ends while it holds ends
 * with `too_loud: false` (docs/decisions/0076).
 */
export interface RoomNoisePayload {
  too_loud: boolean;
  cause: RoomNoiseCause;
}

/**
 * How a live stream ended, when the client stopped it: `recognised` if any `recognition`
 * was sent in it (rejections too), `taken_for_room` if speech was heard but all of it was
 * set aside as the room's (a television, other people), `nothing_heard` if no speech was.
 */
export const STREAM_OUTCOMES = ['recognised', 'taken_for_room', 'nothing_heard'] as const;
export type StreamOutcome = (typeof STREAM_OUTCOMES)[number];

/** What a live stream has done so far, from its recogniser's events. */
export interface StreamTally {
  /** Speech was heard, understood or not: a result, or an utterance withdrawn as the room
   * talking (not one the room's steady sound alone opened). */
  heardSpeech: boolean;
  /** A result was given (rejections too). */
  answered: boolean;
}

/** How a stream with this tally ended. */
export function streamOutcome(tally: StreamTally): StreamOutcome {
  if (tally.answered) return 'recognised';
  return tally.heardSpeech ? 'taken_for_room' : 'nothing_heard';
}

/**
 * The answer to `stop_stream_processing`, after the stream's last `recognition`: no more
 * results are coming, and whether anything was understood. Parla's own event
 * (docs/decisions/0100).
 */
export interface StreamEndedPayload {
  request_id: string;
  outcome: StreamOutcome;
}

export interface ServerToClientEvents {
  connection_ready: () => void;
  request_received: (payload: { request_id: string }) => void;
  partial_recognition: (payload: { text: string }) => void;
  recognition: (payload: RecognitionResult) => void;
  room_noise: (payload: RoomNoisePayload) => void;
  stream_ended: (payload: StreamEndedPayload) => void;
  model_missing: (payload: ModelStatusPayload) => void;
  model_loading: (payload: ModelStatusPayload) => void;
  model_loading_error: (payload: ModelStatusPayload) => void;
  model_ready: (payload: ModelStatusPayload) => void;
  error: (error: SocketErrorPayload) => void;
}

export interface ClientToServerEvents {
  select_provider: (payload: SelectProviderPayload) => void;
  set_options: (payload: SetOptionsPayload) => void;
  stream_audio_samples: (samples: AudioSamples) => void;
  stream_compressed_audio: (data: ArrayBuffer | Uint8Array) => void;
  recognize_audio_samples: (samples: AudioSamples) => void;
  stop_stream_processing: () => void;
}
