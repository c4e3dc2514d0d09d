// Tone "phrases" for recogniser tests: each phrase is a sequence of vowel-like words with
// its own pitch and formant contours; takes vary in tempo, pitch and noise.
import { SAMPLE_RATE } from '../units.js';
import { concat, noise, seeded, word } from './signals.js';

/** Contours for up to 12 distinct phrases. */
const SHAPES: [number, number, number, number][][] = Array.from({ length: 12 }, (_, p) =>
  Array.from({ length: 2 + (p % 3) }, (_, w) => {
    const r = seeded(100 + p * 7 + w);
    return [100 + r() * 80, 100 + r() * 80, 300 + r() * 2500, 300 + r() * 2500] as [
      number,
      number,
      number,
      number,
    ];
  }),
);

/**
 * One take of phrase `p`: silence, the words with small pauses, silence. `hesitation`
 * puts a long pause after one word, as a speaker who stops mid-phrase.
 */
export function take(
  p: number,
  takeIndex: number,
  opts: { tempo?: number; hesitation?: { afterWord: number; seconds: number } } = {},
): Float32Array {
  const r = seeded(1000 + p * 31 + takeIndex * 7);
  const tempo = (opts.tempo ?? 1) * (0.9 + 0.2 * r());
  const shift = 0.95 + 0.1 * r();
  const parts: Float32Array[] = [noise(0.4, 0.001, takeIndex + 1)];
  (SHAPES[p % SHAPES.length] ?? []).forEach(([a, b, c, d], w) => {
    parts.push(word(0.25 * tempo, [a * shift, b * shift], [c, d], takeIndex + 3));
    const pause = opts.hesitation?.afterWord === w ? opts.hesitation.seconds : 0.06 * tempo;
    parts.push(noise(pause, 0.001, takeIndex + 5));
  });
  parts.push(noise(0.6, 0.001, takeIndex + 9));
  return concat(...parts);
}

/** Seconds of audio as samples. */
export const samples = (s: number): number => Math.round(s * SAMPLE_RATE);
