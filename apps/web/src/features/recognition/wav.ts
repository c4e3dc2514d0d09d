import { AUDIO_SAMPLE_RATE } from '@parla/contract';

/** 16-bit mono PCM as a WAV file (the upload format of spec section 9). */
export function encodeWav(samples: Int16Array, sampleRate = AUDIO_SAMPLE_RATE): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i += 1) view.setUint8(offset + i, value.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i += 1) view.setInt16(44 + i * 2, samples[i] ?? 0, true);
  return bytes;
}

/** 16-bit samples as the recogniser's floats in -1..1. */
export function toFloat(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) out[i] = (samples[i] ?? 0) / 32768;
  return out;
}

/** The last `maxSamples` of a stream, with the stream position of its first sample. */
export class AudioTail {
  private chunks: Int16Array[] = [];
  private length = 0;
  /** Stream position (in samples) of the first kept sample. */
  private from = 0;
  private total = 0;

  constructor(private readonly maxSamples: number) {}

  push(samples: Int16Array) {
    this.chunks.push(samples);
    this.length += samples.length;
    this.total += samples.length;
    while (this.chunks.length > 1 && this.length - (this.chunks[0]?.length ?? 0) >= this.maxSamples) {
      const dropped = this.chunks.shift();
      this.length -= dropped?.length ?? 0;
      this.from += dropped?.length ?? 0;
    }
  }

  /** Samples pushed so far. */
  get position() {
    return this.total;
  }

  /** The kept audio between two stream times in seconds, as far as it is still kept. */
  slice(startSeconds: number, endSeconds: number, sampleRate = AUDIO_SAMPLE_RATE): Int16Array {
    const all = new Int16Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      all.set(chunk, offset);
      offset += chunk.length;
    }
    const start = Math.max(0, Math.floor(startSeconds * sampleRate) - this.from);
    const end = Math.min(all.length, Math.max(start, Math.ceil(endSeconds * sampleRate) - this.from));
    return all.slice(start, end);
  }

  reset() {
    this.chunks = [];
    this.length = 0;
    this.from = 0;
    this.total = 0;
  }
}
