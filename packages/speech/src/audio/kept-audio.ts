import { contextSpan, heardSamples, spokenSamples } from '../generic/second-opinion.js';

/**
 * Seconds of a live stream kept, wherever a stream is heard (the server's session and
 * listener, the browser's worker and page): the longest recording a person may keep (20 s)
 * and a lead-in, enough to keep an utterance or hear it again.
 */
export const STREAM_KEPT_SECONDS = 25;

/**
 * The last seconds of a live stream's audio (16 kHz), cut by stream time: what a result was
 * recognised from, to keep it or to hear it again. Chunks are kept as they came and joined
 * only when cut.
 */
export class KeptAudio {
  private chunks: Float32Array[] = [];
  private length = 0;
  /** Stream position (in samples) of the first kept sample. */
  private from = 0;

  constructor(private readonly maxSeconds: number) {}

  push(samples: Float32Array): void {
    this.chunks.push(samples);
    this.length += samples.length;
    const max = this.maxSeconds * 16_000;
    while (this.chunks.length > 1 && this.length - (this.chunks[0]?.length ?? 0) >= max) {
      const dropped = this.chunks.shift();
      this.length -= dropped?.length ?? 0;
      this.from += dropped?.length ?? 0;
    }
  }

  /** The audio between two stream times in seconds, as far as it is still kept. */
  slice(start: number, end: number): Float32Array {
    const all = this.joined();
    const from = Math.min(all.length, Math.max(0, Math.floor(start * 16_000) - this.from));
    const to = Math.min(all.length, Math.max(from, Math.ceil(end * 16_000) - this.from));
    return all.subarray(from, to);
  }

  /**
   * An utterance from `start` to `end` seconds as the generic path hears it: with silence
   * around it ({@link contextSpan}), as `withSilenceAround` gives it.
   */
  around(start: number, end: number): Float32Array {
    const [from, to] = contextSpan(start, end);
    return this.spoken(from, to, start, end);
  }

  /** An utterance from `start` to `end` seconds as the speech encoder hears it: its own
   * samples, as `encoderHears` cuts them from a whole recording. */
  heardByEncoder(start: number, end: number): Float32Array {
    const [from, to] = spokenSamples(start, end);
    return this.spoken(from, to, start, end);
  }

  /**
   * Stream samples `from` to `to` of an utterance that starts at `start` seconds and ends at
   * `end` (when known): its own samples, silence outside it.
   */
  spoken(from: number, to: number, start: number, end = Number.POSITIVE_INFINITY): Float32Array {
    return heardSamples(from, to, start, end, (a, b) => this.between(a, b));
  }

  /** How many samples the stream has had. */
  get heard(): number {
    return this.from + this.length;
  }

  /** Stream samples `from` to `to`, silence for those not kept (dropped, or not yet heard). */
  between(from: number, to: number): Float32Array {
    const out = new Float32Array(Math.max(0, to - from));
    let at = this.from;
    for (const chunk of this.chunks) {
      const first = Math.max(from, at);
      const last = Math.min(to, at + chunk.length);
      if (last > first) out.set(chunk.subarray(first - at, last - at), first - from);
      at += chunk.length;
      if (at >= to) break;
    }
    return out;
  }

  private joined(): Float32Array {
    const all = new Float32Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      all.set(chunk, offset);
      offset += chunk.length;
    }
    return all;
  }
}
