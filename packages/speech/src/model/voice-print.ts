import type { FrontEnd, SpectralFrame } from '../features/features.js';
import { defaultFrontEnd } from './profile.js';
import type { Decibels, Hz } from '../units.js';
import { loudLevelOf } from '../vad/endpointer.js';

/**
 * What the person's voice sounds like, apart from what they say: a codebook of the spectral
 * shape of their takes' loud frames. Unlike the templates' features, nothing is normalised
 * per utterance, so the voice's own colour (what tells one person from another) stays in.
 * An utterance's distortion against it (`voiceDistortion`) tells the person's phrase from
 * another voice in the room saying one of their words, which no level can at 10 dB
 * (docs/decisions/0094).
 */
export interface VoicePrint {
  /** Mel bands the shape is read over: those under `VOICE_TOP_HZ`. */
  bands: number;
  /** `VOICE_CEPSTRA` values a centroid, row-major. */
  codebook: Float32Array;
  /** The median distortion of a take held out of the codebook: distortions are read over it. */
  scale: number;
}

/**
 * The shape is read under this frequency: every channel carries it, so a person enrolled at
 * full band and heard through an 8 kHz headset reads as their takes do (with every band,
 * such utterances read 4-8 times the scale; under it, as the takes).
 */
export const VOICE_TOP_HZ: Hz = 3800;
/** Cepstra of the shape, the first (the level) left out. */
export const VOICE_CEPSTRA = 12;
/** Centroids in the codebook. */
const VOICE_CODES = 64;
/** Frames of an utterance that speak for its voice: those within this of its loud level. */
const VOICE_RANGE_DB: Decibels = 15;
/** At most this many frames are clustered: a large profile costs no more than a small one. */
const MAX_CLUSTERED = 4096;
const ITERATIONS = 10;
/** Takes are held out of the codebook a third at a time to learn the scale. */
const FOLDS = 3;

/** How many of the front end's mel bands lie wholly under `VOICE_TOP_HZ`. */
export function voiceBands(fe: FrontEnd = defaultFrontEnd()): number {
  const hzPerBin = fe.sampleRate / fe.fftSize;
  return fe.filters.filter((f) => (f.start + f.weights.length) * hzPerBin <= VOICE_TOP_HZ).length;
}

/** The cosine table of cepstra 1..`VOICE_CEPSTRA` over `bands` bands, made once. */
const dctTables = new Map<number, Float64Array>();
function dctOver(bands: number): Float64Array {
  let table = dctTables.get(bands);
  if (table === undefined) {
    table = new Float64Array(VOICE_CEPSTRA * bands);
    for (let c = 0; c < VOICE_CEPSTRA; c++)
      for (let b = 0; b < bands; b++)
        table[c * bands + b] = Math.sqrt(2 / bands) * Math.cos((Math.PI * (c + 1) * (b + 0.5)) / bands);
    dctTables.set(bands, table);
  }
  return table;
}

/** The frames' spectral shapes: cepstra 1..`VOICE_CEPSTRA` over the first `bands` log-mel bands. */
function shapes(frames: readonly SpectralFrame[], bands: number): Float32Array[] {
  const dct = dctOver(bands);
  return frames.map((f) => {
    const out = new Float32Array(VOICE_CEPSTRA);
    for (let c = 0; c < VOICE_CEPSTRA; c++) {
      let s = 0;
      for (let b = 0; b < bands; b++) s += (f.logMel[b] as number) * (dct[c * bands + b] as number);
      out[c] = s;
    }
    return out;
  });
}

/** The frames that speak for an utterance's voice: within `VOICE_RANGE_DB` of its loud level. */
function voiced(frames: readonly SpectralFrame[]): SpectralFrame[] {
  const loud = loudLevelOf(frames.map((f) => f.energyDb));
  return frames.filter((f) => f.energyDb >= loud - VOICE_RANGE_DB);
}

function squaredDistance(a: Float32Array, codebook: Float32Array, at: number): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] as number) - (codebook[at + i] as number);
    s += d * d;
  }
  return s;
}

/** The nearest centroid's index and distance. */
function nearest(x: Float32Array, codebook: Float32Array): { code: number; distance: number } {
  let code = 0;
  let best = Infinity;
  for (let at = 0, k = 0; at < codebook.length; at += VOICE_CEPSTRA, k++) {
    const d = squaredDistance(x, codebook, at);
    if (d < best) {
      best = d;
      code = k;
    }
  }
  return { code, distance: Math.sqrt(best) };
}

/** Evenly spaced picks of at most `max` of `items`, in order: deterministic and bounded. */
function spread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)] as T);
}

/** k-means from evenly spaced frames; a centroid left empty takes the worst-fitting frame. */
function cluster(data: readonly Float32Array[]): Float32Array {
  const sample = spread(data, MAX_CLUSTERED);
  const codes = Math.min(VOICE_CODES, sample.length);
  const codebook = new Float32Array(codes * VOICE_CEPSTRA);
  spread(sample, codes).forEach((x, k) => codebook.set(x, k * VOICE_CEPSTRA));
  const sums = new Float64Array(codebook.length);
  const counts = new Int32Array(codes);
  for (let it = 0; it < ITERATIONS; it++) {
    sums.fill(0);
    counts.fill(0);
    let worst = { at: 0, distance: -1 };
    sample.forEach((x, n) => {
      const { code, distance } = nearest(x, codebook);
      counts[code] = (counts[code] as number) + 1;
      const at = code * VOICE_CEPSTRA;
      for (let i = 0; i < VOICE_CEPSTRA; i++) sums[at + i] = (sums[at + i] as number) + (x[i] as number);
      if (distance > worst.distance) worst = { at: n, distance };
    });
    for (let k = 0; k < codes; k++) {
      const n = counts[k] as number;
      if (n === 0) codebook.set(sample[worst.at] as Float32Array, k * VOICE_CEPSTRA);
      else
        for (let i = 0; i < VOICE_CEPSTRA; i++)
          codebook[k * VOICE_CEPSTRA + i] = (sums[k * VOICE_CEPSTRA + i] as number) / n;
    }
  }
  return codebook;
}

function meanDistortion(points: readonly Float32Array[], codebook: Float32Array): number {
  return points.reduce((s, x) => s + nearest(x, codebook).distance, 0) / points.length;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
}

/**
 * The person's voice print from their takes' frames (each take's, end-pointer padding and
 * all: only its loud frames count). Undefined with fewer than two takes, which leave no
 * take to hold out for the scale.
 */
export function learnVoicePrint(takes: readonly (readonly SpectralFrame[])[]): VoicePrint | undefined {
  const bands = voiceBands();
  const perTake = takes.map((frames) => shapes(voiced(frames), bands)).filter((s) => s.length > 0);
  if (perTake.length < 2) return undefined;
  const folds = Math.min(FOLDS, perTake.length);
  const heldOut: number[] = [];
  for (let fold = 0; fold < folds; fold++) {
    const codebook = cluster(perTake.filter((_, i) => i % folds !== fold).flat());
    perTake.forEach((points, i) => {
      if (i % folds === fold) heldOut.push(meanDistortion(points, codebook));
    });
  }
  return { bands, codebook: cluster(perTake.flat()), scale: median(heldOut) };
}

/** How unlike the person's voice one frame sounds, over the print's scale. */
export function frameDistortion(print: VoicePrint, frame: SpectralFrame): number {
  return nearest(shapes([frame], print.bands)[0] as Float32Array, print.codebook).distance / print.scale;
}

/**
 * An utterance that reads under this (`voiceDistortion`) sounds like the person: with a
 * room talking 10 dB under them their own read 1.1-1.4, other voices 1.5-3 (the medians of
 * each set of users, docs/decisions/0094); traced at 10 dB, the room's words taken alone
 * for phrases read a median 1.8 (FSDD's people), the person's 1.2-1.3 (docs/decisions/0096).
 */
export const VOICE_LIKE_LINE = 1.5;

/**
 * How unlike the person's voice an utterance's loud frames are: their mean distance to the
 * nearest centroid, over the print's scale. The person's own utterances read about 1
 * (0.97-1.18, the median of each set of users), 1.1-1.4 with a room talking 10 dB under
 * them; other voices 1.5-3 (docs/decisions/0094).
 */
export function voiceDistortion(print: VoicePrint, frames: readonly SpectralFrame[]): number | undefined {
  const points = shapes(voiced(frames), print.bands);
  return points.length === 0 ? undefined : meanDistortion(points, print.codebook) / print.scale;
}
