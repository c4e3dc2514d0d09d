import { SpeechError } from '../errors.js';
import type { Hz } from '../units.js';

/** Decoded audio: one Float32Array per channel, samples in [-1, 1]. */
export interface DecodedAudio {
  sampleRate: Hz;
  channels: Float32Array[];
}

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_IEEE_FLOAT = 3;
const WAVE_FORMAT_ALAW = 6;
const WAVE_FORMAT_MULAW = 7;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/**
 * G.711 mu-law (North America, Japan) and A-law (elsewhere): 8-bit companded samples, what
 * telephone systems, voicemail exports and many dictation recorders write into WAV files.
 * Each code is expanded to its 16-bit linear value as ITU-T G.711 defines it, once, into a
 * table of 256 samples in [-1, 1].
 */
const MULAW = Float32Array.from({ length: 256 }, (_, code) => {
  const u = ~code & 0xff;
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << ((u >> 4) & 7)) - 0x84;
  // `0 - magnitude`: mu-law's negative zero (0x7f) decodes to a plain 0, not -0.
  return (u & 0x80 ? 0 - magnitude : magnitude) / 32768;
});
const ALAW = Float32Array.from({ length: 256 }, (_, code) => {
  const a = code ^ 0x55;
  const exponent = (a >> 4) & 7;
  const mantissa = (a & 0x0f) << 4;
  const magnitude = exponent === 0 ? mantissa + 8 : (mantissa + 0x108) << (exponent - 1);
  // A-law's sign bit is set for positive samples.
  return (a & 0x80 ? magnitude : -magnitude) / 32768;
});

function tag(view: DataView, offset: number): string {
  return String.fromCharCode(
    view.getUint8(offset),
    view.getUint8(offset + 1),
    view.getUint8(offset + 2),
    view.getUint8(offset + 3),
  );
}

/**
 * Decode a RIFF/WAVE file holding PCM (8/16/24/32-bit), IEEE float (32/64-bit) or G.711
 * mu-law or A-law (8-bit) samples.
 */
export function decodeWav(bytes: Uint8Array): DecodedAudio {
  if (bytes.byteLength === 0) throw new SpeechError('empty_audio', 'The audio file is empty.');
  if (bytes.byteLength < 12) throw new SpeechError('not_audio', 'This is not a WAV audio file.');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (tag(view, 0) !== 'RIFF' || tag(view, 8) !== 'WAVE') {
    throw new SpeechError('not_audio', 'This is not a WAV audio file.');
  }
  let format = -1;
  let channelCount = 0;
  let sampleRate = 0;
  let bitsPerSample = 0;
  let data: { offset: number; length: number } | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.byteLength) {
    const id = tag(view, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.byteLength) {
        throw new SpeechError('truncated_audio', 'The WAV header is cut short.');
      }
      format = view.getUint16(body, true);
      channelCount = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bitsPerSample = view.getUint16(body + 14, true);
      if (format === WAVE_FORMAT_EXTENSIBLE && size >= 26 && body + 26 <= bytes.byteLength) {
        format = view.getUint16(body + 24, true);
      }
    } else if (id === 'data') {
      // Streams written live often leave the size at 0 or 0xffffffff: take what is there.
      const available = bytes.byteLength - body;
      const length = size === 0 || size === 0xffffffff ? available : size;
      if (length > available) throw new SpeechError('truncated_audio', 'The audio data is cut short.');
      data = { offset: body, length };
      break;
    }
    offset = body + size + (size % 2);
  }
  if (format === -1) throw new SpeechError('not_audio', 'The WAV file has no format chunk.');
  if (data === undefined) throw new SpeechError('truncated_audio', 'The WAV file has no audio data.');
  if (channelCount < 1 || sampleRate < 1000 || sampleRate > 384_000) {
    throw new SpeechError('unsupported_audio', 'The WAV file has an invalid channel count or sample rate.');
  }
  const bytesPerSample = bitsPerSample / 8;
  const supported =
    (format === WAVE_FORMAT_PCM && [8, 16, 24, 32].includes(bitsPerSample)) ||
    (format === WAVE_FORMAT_IEEE_FLOAT && (bitsPerSample === 32 || bitsPerSample === 64)) ||
    ((format === WAVE_FORMAT_MULAW || format === WAVE_FORMAT_ALAW) && bitsPerSample === 8);
  if (!supported) {
    throw new SpeechError(
      'unsupported_audio',
      `Unsupported WAV encoding (format ${format}, ${bitsPerSample} bits); use PCM, 32-bit float, mu-law or A-law.`,
    );
  }
  const frameBytes = bytesPerSample * channelCount;
  const frames = Math.floor(data.length / frameBytes);
  if (frames === 0) throw new SpeechError('empty_audio', 'The audio file holds no samples.');
  const channels = Array.from({ length: channelCount }, () => new Float32Array(frames));
  const companded = format === WAVE_FORMAT_MULAW ? MULAW : format === WAVE_FORMAT_ALAW ? ALAW : undefined;
  let p = data.offset;
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channelCount; c++) {
      let v: number;
      if (companded !== undefined) {
        v = companded[view.getUint8(p)] as number;
      } else if (format === WAVE_FORMAT_IEEE_FLOAT) {
        v = bitsPerSample === 32 ? view.getFloat32(p, true) : view.getFloat64(p, true);
      } else if (bitsPerSample === 16) {
        v = view.getInt16(p, true) / 32768;
      } else if (bitsPerSample === 8) {
        v = (view.getUint8(p) - 128) / 128;
      } else if (bitsPerSample === 24) {
        const x = view.getUint8(p) | (view.getUint8(p + 1) << 8) | (view.getInt8(p + 2) << 16);
        v = x / 8388608;
      } else {
        v = view.getInt32(p, true) / 2147483648;
      }
      // Non-finite floats would poison every later stage.
      (channels[c] as Float32Array)[i] = Number.isFinite(v) ? v : 0;
      p += bytesPerSample;
    }
  }
  return { sampleRate, channels };
}

/** Encode mono float samples as a 16-bit PCM WAV file. */
export function encodeWavPcm16(samples: Float32Array, sampleRate: Hz): Uint8Array {
  const out = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(out.buffer);
  const write = (o: number, s: string): void => {
    for (let i = 0; i < 4; i++) view.setUint8(o + i, s.charCodeAt(i));
  };
  write(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  write(8, 'WAVE');
  write(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, WAVE_FORMAT_PCM, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  write(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i] ?? 0));
    view.setInt16(44 + i * 2, Math.round(s < 0 ? s * 32768 : s * 32767), true);
  }
  return out;
}
