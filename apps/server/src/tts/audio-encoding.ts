import { createMp3Encoder } from 'wasm-media-encoders';
import type { SpeechAudio } from './tts-engine.js';

/** Reads the PCM16 mono samples of a RIFF/WAVE file, as espeak-ng writes it. */
export function readPcm16Wav(bytes: Uint8Array): SpeechAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (bytes.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a WAV file');
  let sampleRate = 0;
  for (let offset = 12; offset + 8 <= bytes.byteLength;) {
    const id = tag(offset);
    // espeak-ng streams its output: the data chunk may claim more than was written.
    const size = Math.min(view.getUint32(offset + 4, true), bytes.byteLength - offset - 8);
    const body = offset + 8;
    if (id === 'fmt ') {
      const format = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      const bits = view.getUint16(body + 14, true);
      if (format !== 1 || channels !== 1 || bits !== 16) throw new Error('expected mono PCM16');
      sampleRate = view.getUint32(body + 4, true);
    } else if (id === 'data') {
      if (!sampleRate) throw new Error('WAV data before its format');
      const samples = new Int16Array(Math.floor(size / 2));
      for (let i = 0; i < samples.length; i += 1) samples[i] = view.getInt16(body + 2 * i, true);
      return { samples, sampleRate };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file without data');
}

/** A mono PCM16 WAV file. */
export function encodeWav({ samples, sampleRate }: SpeechAudio): Uint8Array {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i += 1) bytes[offset + i] = value.charCodeAt(i);
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i += 1) view.setInt16(44 + 2 * i, samples[i] ?? 0, true);
  return bytes;
}

/** Samples handed to the MP3 encoder at a time. */
const MP3_BLOCK = 16_384;

/** A mono MP3 file (LAME in WebAssembly, variable bit rate of good speech quality). */
export async function encodeMp3({ samples, sampleRate }: SpeechAudio): Promise<Uint8Array> {
  const encoder = await createMp3Encoder();
  encoder.configure({ sampleRate, channels: 1, vbrQuality: 4 });
  const parts: Uint8Array[] = [];
  const block = new Float32Array(MP3_BLOCK);
  for (let start = 0; start < samples.length; start += MP3_BLOCK) {
    const length = Math.min(MP3_BLOCK, samples.length - start);
    for (let i = 0; i < length; i += 1) block[i] = (samples[start + i] ?? 0) / 32768;
    // The encoder reuses its output buffer: copy before the next call.
    parts.push(encoder.encode([block.subarray(0, length)]).slice());
  }
  parts.push(encoder.finalize().slice());
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
