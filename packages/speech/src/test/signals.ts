// Deterministic test signals shared by the unit tests.
import { concatAudio } from '../audio/audio.js';
import { rng } from '../seeded.js';
import { SAMPLE_RATE } from '../units.js';

/** A seeded uniform generator in [0, 1): the benchmark data's own. */
export const seeded = rng;

/** Concatenate signals. */
export const concat = concatAudio;

/** Low-level noise, like a quiet room. */
export function noise(seconds: number, level = 0.001, seed = 7): Float32Array {
  const r = seeded(seed);
  return Float32Array.from({ length: Math.round(seconds * SAMPLE_RATE) }, () => (r() * 2 - 1) * level);
}

/** `audio` with {@link noise} of this level under it, as a room or a microphone's hiss adds. */
export function withNoise(audio: Float32Array, level: number, seed?: number): Float32Array {
  const under = noise(audio.length / SAMPLE_RATE, level, seed);
  return audio.map((v, i) => v + (under[i] as number));
}

/**
 * A vowel-like "word": a harmonic-rich tone whose pitch and brightness follow a contour, so
 * different contours are different "phrases" with the structure features care about.
 */
export function word(
  seconds: number,
  f0: [number, number],
  formant: [number, number],
  seed = 1,
  amp = 0.3,
): Float32Array {
  const n = Math.round(seconds * SAMPLE_RATE);
  const r = seeded(seed);
  const out = new Float32Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const t = i / n;
    const f = f0[0] + (f0[1] - f0[0]) * t;
    const fm = formant[0] + (formant[1] - formant[0]) * t;
    phase += (2 * Math.PI * f) / SAMPLE_RATE;
    let v = 0;
    for (let h = 1; h * f < 7000; h++) {
      const dist = (h * f - fm) / 400;
      v += Math.exp(-dist * dist) * Math.sin(h * phase);
    }
    const env = Math.min(1, t * 20, (1 - t) * 20);
    out[i] = amp * env * v * 0.5 + (r() * 2 - 1) * 0.002;
  }
  return out;
}
