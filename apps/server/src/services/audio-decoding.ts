import decodeCompressed from '@audio/decode';
import { decodeWav, SpeechError, type DecodedAudio } from '@parla/speech';
import { AppError } from '../errors.js';

/** What people's recordings come as, besides WAV: phones, voice memo apps, browsers. */
export const ACCEPTED_AUDIO =
  'WAV, M4A (AAC or Apple Lossless), CAF, MP3, Ogg (Opus or Vorbis), WebM, FLAC, AIFF or AMR';

/** A file that is not audio, or is broken: the 4xx of every reader of uploaded audio. */
export class UnreadableAudio extends AppError {}

const unsupported = () =>
  new UnreadableAudio(415, `This file is not audio we can read. Send ${ACCEPTED_AUDIO}.`, 'AUDIO_NOT_AUDIO');

/**
 * Reads an audio file of any common format into its channels. WAV, what the app records,
 * is read directly; anything else goes through WebAssembly decoders bundled from npm.
 * Unreadable input becomes a 4xx that says what is accepted.
 */
export async function decodeAudioFile(bytes: Uint8Array): Promise<DecodedAudio> {
  if (bytes.length === 0) throw new UnreadableAudio(400, 'The audio file is empty.', 'AUDIO_EMPTY_AUDIO');
  try {
    return decodeWav(bytes);
  } catch (error) {
    if (!(error instanceof SpeechError)) throw error;
    // A RIFF file that is broken or of an unknown encoding is reported as such, not retried.
    if (error.code !== 'not_audio') {
      const status = error.code === 'unsupported_audio' ? 415 : 400;
      throw new UnreadableAudio(status, error.message, `AUDIO_${error.code.toUpperCase()}`);
    }
  }
  let decoded: { channelData: Float32Array[]; sampleRate: number };
  try {
    decoded = await decodeCompressed(bytes);
  } catch {
    throw unsupported();
  }
  const frames = decoded.channelData[0]?.length ?? 0;
  if (!(decoded.sampleRate > 0) || frames === 0) {
    throw new UnreadableAudio(400, 'The audio file holds no sound.', 'AUDIO_EMPTY_AUDIO');
  }
  return { sampleRate: decoded.sampleRate, channels: decoded.channelData };
}
