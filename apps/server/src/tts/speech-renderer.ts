import { TTS_CONTENT_TYPES, type TtsMediaType } from '@parla/contract';
import { encodeMp3, encodeWav } from './audio-encoding.js';
import type { TtsEngine } from './tts-engine.js';

/** Synthesized audio ready to send. */
export interface AudioFile {
  bytes: Uint8Array;
  contentType: string;
}

/** Text to encoded speech: synthesis and encoding, the two CPU-heavy steps, together. */
export interface SpeechRenderer {
  render(text: string, voiceId: string, mediaType: TtsMediaType): Promise<AudioFile>;
  close(): Promise<void>;
}

/** Renders on the calling thread: for tools and tests, and where no worker can be started. */
export class InlineSpeechRenderer implements SpeechRenderer {
  constructor(private readonly engine: TtsEngine) {}

  async render(text: string, voiceId: string, mediaType: TtsMediaType): Promise<AudioFile> {
    const audio = await this.engine.synthesize(text, voiceId);
    const bytes = mediaType === 'mp3' ? await encodeMp3(audio) : encodeWav(audio);
    return { bytes, contentType: TTS_CONTENT_TYPES[mediaType] };
  }

  close() {
    return Promise.resolve();
  }
}
