import type { Hz } from '../units.js';

/** Options for {@link resample}. */
export interface ResampleOptions {
  /** Half-width of the windowed-sinc kernel, in zero crossings of the cut-off sinc. */
  halfWidth?: number;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * Band-limited resampling with a Hann-windowed sinc kernel, cut off just below the lower
 * Nyquist frequency so downsampling does not alias. Rational rate pairs (all common ones)
 * use precomputed polyphase kernels; the kernel weights are normalised to unit DC gain.
 */
export function resample(input: Float32Array, from: Hz, to: Hz, options: ResampleOptions = {}): Float32Array {
  if (from === to) return input.slice();
  const halfWidth = options.halfWidth ?? 12;
  const g = gcd(Math.round(from), Math.round(to));
  const up = Math.round(to) / g; // output step = up/down input samples apart
  const down = Math.round(from) / g;
  const ratio = to / from;
  const outLength = Math.max(0, Math.round(input.length * ratio));
  const out = new Float32Array(outLength);
  const cutoff = Math.min(1, ratio) * 0.92;
  const support = halfWidth / cutoff;
  const taps = 2 * Math.ceil(support) + 1;
  const kernelAt = (x: number): number => {
    if (Math.abs(x) >= support) return 0;
    const t = x * cutoff;
    const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    return sinc * (0.5 + 0.5 * Math.cos((Math.PI * x) / support));
  };
  const phases = up <= 2048 ? up : 0;
  // kernels[phase][k] weights input sample floor(centre) - half + k.
  const half = Math.ceil(support);
  const kernels: Float32Array[] = [];
  for (let p = 0; p < phases; p++) {
    const frac = p / up;
    const k = new Float32Array(taps);
    let sum = 0;
    for (let j = 0; j < taps; j++) {
      const w = kernelAt(j - half - frac);
      k[j] = w;
      sum += w;
    }
    for (let j = 0; j < taps; j++) k[j] = (k[j] ?? 0) / sum;
    kernels.push(k);
  }
  const n = input.length;
  for (let i = 0; i < outLength; i++) {
    const num = i * down;
    const base = Math.floor(num / up);
    const start = base - half;
    let kernel: Float32Array;
    if (phases > 0) {
      kernel = kernels[num % up] as Float32Array;
    } else {
      const frac = i / ratio - base;
      kernel = new Float32Array(taps);
      let sum = 0;
      for (let j = 0; j < taps; j++) sum += kernel[j] = kernelAt(j - half - frac);
      for (let j = 0; j < taps; j++) kernel[j] = (kernel[j] ?? 0) / sum;
    }
    let acc = 0;
    if (start >= 0 && start + taps <= n) {
      for (let j = 0; j < taps; j++) acc += (input[start + j] as number) * (kernel[j] as number);
    } else {
      // Edges: treat samples outside the signal as silence.
      for (let j = 0; j < taps; j++) {
        const idx = start + j;
        if (idx >= 0 && idx < n) acc += (input[idx] as number) * (kernel[j] as number);
      }
    }
    out[i] = acc;
  }
  return out;
}
