// Deterministic randomness: the benchmark data and the room tone given to imported takes
// come out the same every time.

/** A xorshift generator of numbers in [0, 1) from a seed. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** A uniform number between a and b. */
export const between = (r: () => number, [a, b]: [number, number]): number => a + (b - a) * r();

/** A 32-bit FNV-1a hash of a text, to seed a generator by name. */
export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
