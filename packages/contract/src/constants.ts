/** Business constants of the client specification (section 9), shared by both sides. */
export const APP_ID = 'casr_web_app';
export const APP_NAME = 'web_app';
export const CLIENT_VERSION = '0.0.48';
export const DEFAULT_LANGUAGE = 'en-US';

export const AUDIO_SAMPLE_RATE = 16_000;

/**
 * Where the server serves the generic recogniser's acoustic models (`en-us/` under it), for
 * the browser's local mode (docs/decisions/0102).
 */
export const SPEECH_MODEL_PATH = '/speech-model/';
/**
 * Where the server serves the speech encoder's model (`SPEECH_ENCODER_FILE` under it), for
 * the third opinion of the browser's local mode (docs/decisions/0147).
 */
export const SPEECH_ENCODER_PATH = '/speech-encoder/';
export const SPEECH_ENCODER_FILE = 'encoder_model.onnx';
export const DATASET_PHRASE_LIMIT = 100;
export const NOTES_PAGE_SIZE = 25;
export const TOKEN_REFRESH_RETRIES = 3;
export const DEFAULT_VOICE_PLAYBACK_SPEED = 0.75;
export const DEFAULT_LAST_TAB = '/record';

/** Cookie consent: essential is always on, non-essential is optional. */
export const COOKIE_CONSENT_TYPES = ['essential', 'non_essential'] as const;
export type CookieConsentType = (typeof COOKIE_CONSENT_TYPES)[number];

/** Task that opens the profile-updated dialog after the first model is built. */
export const TASK_RECOGNITION_UNLOCKED = 'notify_casr_recognition_unlocked';

/** Most entries one client log batch may carry. */
export const MAX_LOG_ENTRIES = 200;

/** Model types that count as a built personal model (spec section 4). */
export const BUILT_MODEL_TYPES = ['acoustic_phoneme', 'acoustic', 'acoustic_icefall_pts7s'] as const;

/** The error codes of spec section 8. */
export const SOCKET_ERROR_CODES = {
  FAILED_TO_LOGIN: 1001,
  ALREADY_STREAMING: 1011,
  CONSENTS_REQUIRED: 1013,
} as const;

export const SOCKET_AUTH_FAILED_MESSAGE = 'authentication failed';
export const CONSENTS_REQUIRED_MESSAGE = 'Please agree to the new privacy policy';
export const ALREADY_STREAMING_MESSAGE = 'streaming already active';
export const DICTATION_NOT_ENABLED_MESSAGE = 'dictation is not enabled for this account';

/**
 * The recognition providers and the socket.io namespace each is served on (same path,
 * /socket.io). The dictation provider is open to accounts whose providers_enabled holds it.
 */
export const REALTIME_PROVIDERS = {
  casr: { namespace: '/' },
  dictation: { namespace: '/dictation' },
} as const;
export type RealtimeProvider = keyof typeof REALTIME_PROVIDERS;
