/** Stable codes for everything the recogniser refuses. */
export type SpeechErrorCode =
  | 'empty_audio'
  | 'truncated_audio'
  | 'not_audio'
  | 'unsupported_audio'
  | 'bad_model'
  | 'bad_training_data'
  | 'bad_request';

/** An error a caller can map to a 4xx response by its code. */
export class SpeechError extends Error {
  readonly code: SpeechErrorCode;

  constructor(code: SpeechErrorCode, message: string) {
    super(message);
    this.name = 'SpeechError';
    this.code = code;
  }
}
