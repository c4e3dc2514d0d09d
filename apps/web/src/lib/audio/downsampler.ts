/** The rate every take and every stream is sent at (spec section 9). */
export const TARGET_RATE = 16_000;

const TAPS_PER_SIDE = 16;
const PHASES = 256;

/**
 * Streaming resampler from the audio device's rate (44.1 or 48 kHz, sometimes 16 kHz) to
 * 16 kHz: a windowed-sinc low-pass below the new Nyquist frequency, evaluated only at the
 * output instants, so aliasing from 8-24 kHz does not fold into the speech band.
 * Keeps its own history, so chunks of any length give the same result as one long buffer.
 */
export class Downsampler {
  private readonly step: number;
  private readonly cutoff: number;
  private history: Float32Array;
  /** Position of the next output sample, in input samples relative to history[0]. */
  private position: number;
  private table: Float32Array | null = null;

  constructor(
    readonly inputRate: number,
    readonly outputRate: number = TARGET_RATE,
  ) {
    if (!(inputRate >= outputRate))
      throw new RangeError(`Cannot downsample from ${inputRate} Hz to ${outputRate} Hz`);
    this.step = inputRate / outputRate;
    // Cycles per input sample, a little below the output Nyquist so the transition band stays out of it.
    this.cutoff = (0.45 * outputRate) / inputRate;
    this.history = new Float32Array(0);
    this.position = 0;
  }

  /** The 16 kHz samples that this input completes. */
  process(input: Float32Array): Float32Array {
    if (this.step === 1) return input.slice();
    const buffer = new Float32Array(this.history.length + input.length);
    buffer.set(this.history);
    buffer.set(input, this.history.length);

    const reach = Math.ceil(TAPS_PER_SIDE * this.step);
    const output: number[] = [];
    let position = this.position;
    // An instant is computed once its right taps have arrived.
    while (position + reach < buffer.length) {
      output.push(this.sampleAt(buffer, position, reach));
      position += this.step;
    }
    // Keep what the next instants' left taps need.
    const keepFrom = Math.max(0, Math.floor(position) - reach);
    this.history = buffer.slice(keepFrom);
    this.position = position - keepFrom;
    return Float32Array.from(output);
  }

  /** The samples still held back for their right taps, as if the input ended in silence. */
  flush(): Float32Array {
    if (this.step === 1) return new Float32Array(0);
    const reach = Math.ceil(TAPS_PER_SIDE * this.step);
    const output: number[] = [];
    let position = this.position;
    while (position < this.history.length) {
      output.push(this.sampleAt(this.history, position, reach));
      position += this.step;
    }
    this.history = new Float32Array(0);
    this.position = 0;
    return Float32Array.from(output);
  }

  private sampleAt(buffer: Float32Array, position: number, reach: number): number {
    let centre = Math.floor(position);
    let phase = Math.round((position - centre) * PHASES);
    if (phase === PHASES) {
      centre += 1;
      phase = 0;
    }
    const weights = this.weights(reach);
    const width = 2 * reach + 1;
    let sum = 0;
    for (let tap = 0; tap < width; tap += 1) {
      const index = centre - reach + tap;
      if (index < 0 || index >= buffer.length) continue;
      sum += (buffer[index] as number) * (weights[phase * width + tap] as number);
    }
    return sum;
  }

  /**
   * Filter weights for PHASES fractional offsets, computed once: the audio thread then does
   * multiply-adds only. A 1/256-sample offset error is far below what speech features notice.
   */
  private weights(reach: number): Float32Array {
    if (this.table) return this.table;
    const width = 2 * reach + 1;
    const table = new Float32Array(PHASES * width);
    for (let phase = 0; phase < PHASES; phase += 1) {
      const fraction = phase / PHASES;
      let total = 0;
      for (let tap = 0; tap < width; tap += 1) {
        const distance = tap - reach - fraction;
        const x = 2 * this.cutoff * distance;
        const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
        // Hann window over the filter's reach.
        const weight = sinc * (0.5 + 0.5 * Math.cos((Math.PI * distance) / (reach + 1)));
        table[phase * width + tap] = weight;
        total += weight;
      }
      // Unity gain at DC for every phase.
      for (let tap = 0; tap < width; tap += 1)
        table[phase * width + tap] = (table[phase * width + tap] as number) / total;
    }
    this.table = table;
    return table;
  }
}

/** Float samples in -1..1 to 16-bit PCM, clipped. */
export function floatToInt16(samples: Float32Array): Int16Array {
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) {
    const value = Math.max(-1, Math.min(1, samples[i] ?? 0));
    pcm[i] = value < 0 ? Math.round(value * 0x8000) : Math.round(value * 0x7fff);
  }
  return pcm;
}

/** Loudness of a block: root mean square and peak, both 0..1. */
export function measureLevel(samples: Float32Array): { rms: number; peak: number } {
  let energy = 0;
  let peak = 0;
  for (const sample of samples) {
    energy += sample * sample;
    peak = Math.max(peak, Math.abs(sample));
  }
  return { rms: samples.length === 0 ? 0 : Math.sqrt(energy / samples.length), peak };
}
