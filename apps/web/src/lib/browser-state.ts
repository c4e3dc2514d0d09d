import type { CookieConsentType, SourceTracking } from '@parla/contract';

/** The recognition modes the user picks between (speak = conversation, dictate = dictation). */
export type RecognitionMode = 'speak' | 'dictate';

export interface AudioOptions {
  deviceId: string | null;
}

export interface HandsFreeOptions {
  enabled: boolean;
  /** The additional keyboard mode: shortcuts need Ctrl held. */
  requireCtrl: boolean;
}

/** The local browser state of spec section 3, with the type of each key. */
export interface BrowserState {
  recognitionMode: RecognitionMode;
  lastOpenedTab: string;
  /** Per device: key acoustic_model_version holds the last model version seen. */
  notificationStatus: Record<string, string>;
  unauthorizedCookieTypesConsent: CookieConsentType[];
  sourceTracking: SourceTracking;
  audioOptions: AudioOptions;
  handsFreeOptions: HandsFreeOptions;
  voicePlaybackSpeed: number;
  /** Where speech is recognised: on the server over the socket, or in this browser. */
  recognitionEngine: RecognitionEngineChoice;
  /** The text-to-speech voice of speak mode (an id of GET /api/v1/list_voices). */
  ttsVoiceId: string;
  /** Listening: the microphone stays open (hands-free) or each utterance is a press to start and stop. */
  listeningMode: 'hands_free' | 'press';
}

export type RecognitionEngineChoice = 'server' | 'local';

export type BrowserStateKey = keyof BrowserState;

const PREFIX = 'parla.';

/** Typed access to localStorage; a broken or missing value reads as absent. */
export const browserState = {
  get<K extends BrowserStateKey>(key: K): BrowserState[K] | undefined {
    try {
      const raw = localStorage.getItem(PREFIX + key);
      return raw === null ? undefined : (JSON.parse(raw) as BrowserState[K]);
    } catch {
      return undefined;
    }
  },
  set<K extends BrowserStateKey>(key: K, value: BrowserState[K]) {
    try {
      localStorage.setItem(PREFIX + key, JSON.stringify(value));
    } catch {
      // Storage full or refused: the setting lasts for this page only.
    }
  },
  remove(key: BrowserStateKey) {
    localStorage.removeItem(PREFIX + key);
  },
  /** Logout: forget every setting this browser kept for the user. */
  clearUserSettings() {
    // Source tracking waits for a sign-up; the model version seen is per device.
    const keep: BrowserStateKey[] = ['sourceTracking', 'notificationStatus'];
    for (let index = localStorage.length - 1; index >= 0; index -= 1) {
      const key = localStorage.key(index);
      if (key?.startsWith(PREFIX) && !keep.some((kept) => key === PREFIX + kept))
        localStorage.removeItem(key);
    }
  },
};
