import { SpeechError } from '../errors.js';
import { DtwWorkspace } from './dtw.js';
import { takeFeatures } from './features-of-take.js';
import {
  DEFAULT_SETTINGS,
  MODEL_VERSION,
  makeTemplate,
  normaliseText,
  type Calibration,
  type ModelSettings,
  type Profile,
  type Template,
} from './profile.js';
import { align, confidence, exactScores, prune, rival } from './scoring.js';
import type { Seconds } from '../units.js';

/** One enrolment recording: the phrase and its audio at 16 kHz mono. */
export interface TrainingItem {
  text: string;
  audio: Float32Array;
}

/** Training settings. */
export interface TrainOptions {
  settings?: Partial<ModelSettings>;
  /** Share of simulated out-of-vocabulary utterances allowed through. */
  targetFalseAccept?: number;
  /** Default end-point silence, raised when the user's takes hold longer pauses. */
  minSilence?: Seconds;
  /** Clock for `trainedAt`, injectable for reproducible files. */
  now?: () => Date;
}

/** Calibration used when the takes alone cannot fit one (few phrases, single takes). */
export const PRIOR_CALIBRATION: Calibration = { weights: [1.5, -5, -10], threshold: 0.5 };
/** Typical take-to-take distance relative to the nearest other phrase, for single-take profiles. */
const SCALE_PRIOR_RATIO = 0.8;
/** Other phrases each take is aligned against during calibration. */
const COMPETITORS = 3;
/** Pseudo-count pulling each phrase's scale towards the user's overall scale. */
const SCALE_SHRINK = 1000;

interface Sample {
  x1: number;
  x2: number;
  label: number;
}

function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Logistic regression by Newton steps with a Gaussian prior around `prior`. */
export function fitLogistic(
  samples: Sample[],
  prior: [number, number, number],
  strength: number,
): [number, number, number] {
  let w: [number, number, number] = [...prior];
  for (let iter = 0; iter < 25; iter++) {
    const g = [0, 0, 0];
    const h = [
      [strength, 0, 0],
      [0, strength, 0],
      [0, 0, strength],
    ];
    for (let k = 0; k < 3; k++) g[k] = strength * ((w[k] as number) - (prior[k] as number));
    for (const s of samples) {
      const x = [1, s.x1, s.x2];
      const z = w[0] + w[1] * s.x1 + w[2] * s.x2;
      const p = 1 / (1 + Math.exp(-z));
      const r = p * (1 - p);
      for (let a = 0; a < 3; a++) {
        g[a] = (g[a] as number) + (p - s.label) * (x[a] as number);
        const row = h[a] as number[];
        for (let b = 0; b < 3; b++) row[b] = (row[b] as number) + r * (x[a] as number) * (x[b] as number);
      }
    }
    const step = solve3(h, g);
    w = [w[0] - step[0], w[1] - step[1], w[2] - step[2]];
    if (Math.abs(step[0]) + Math.abs(step[1]) + Math.abs(step[2]) < 1e-6) break;
  }
  return w;
}

function solve3(m: number[][], v: number[]): [number, number, number] {
  const a = m.map((row, i) => [...row, v[i] as number]);
  for (let c = 0; c < 3; c++) {
    let pivot = c;
    for (let r = c + 1; r < 3; r++)
      if (Math.abs((a[r] as number[])[c] as number) > Math.abs((a[pivot] as number[])[c] as number))
        pivot = r;
    [a[c], a[pivot]] = [a[pivot] as number[], a[c] as number[]];
    const pr = a[c] as number[];
    const pv = pr[c] as number;
    if (Math.abs(pv) < 1e-12) return [0, 0, 0];
    for (let r = 0; r < 3; r++) {
      if (r === c) continue;
      const row = a[r] as number[];
      const f = (row[c] as number) / pv;
      for (let k = c; k < 4; k++) row[k] = (row[k] as number) - f * (pr[k] as number);
    }
  }
  return [0, 1, 2].map((i) => ((a[i] as number[])[3] as number) / ((a[i] as number[])[i] as number)) as [
    number,
    number,
    number,
  ];
}

/**
 * Train a personal profile. Calibration is leave-one-out without the quadratic cost: each
 * take is decoded once, by the decoder's own first pass and alignment, against all other
 * templates. The same result answers two questions: with the take's own phrase still
 * enrolled (is the top answer right?) and with it removed (what does an unknown phrase
 * score?). Those two populations fit the confidence and set the rejection threshold.
 */
export function trainProfile(items: readonly TrainingItem[], options: TrainOptions = {}): Profile {
  if (items.length === 0) throw new SpeechError('bad_training_data', 'There are no recordings to train on.');
  const settings: ModelSettings = { ...DEFAULT_SETTINGS, ...options.settings };
  const phraseIndex = new Map<string, number>();
  const phrases: string[] = [];
  const templates: Template[] = [];
  let longestPause = 0;
  for (const item of items) {
    const key = normaliseText(item.text);
    if (key === '') throw new SpeechError('bad_training_data', 'A phrase has no text.');
    let p = phraseIndex.get(key);
    if (p === undefined) {
      p = phrases.length;
      phraseIndex.set(key, p);
      phrases.push(item.text.trim());
    }
    const take = takeFeatures(item.audio, settings);
    longestPause = Math.max(longestPause, take.longestPause);
    templates.push(makeTemplate(take.features, p, settings));
  }
  const byPhrase: number[][] = phrases.map(() => []);
  templates.forEach((t, i) => byPhrase[t.phrase]?.push(i));
  const ws = new DtwWorkspace();

  // Take-to-take distances within each phrase: the phrase's own spread, and the
  // leave-one-out distance of every take to its own phrase.
  const intra: number[][] = phrases.map(() => []);
  const own = new Float64Array(templates.length).fill(Infinity);
  for (let p = 0; p < phrases.length; p++) {
    const list = byPhrase[p] as number[];
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const ia = list[a] as number;
        const ib = list[b] as number;
        const d = align(templates[ia] as Template, templates[ib] as Template, settings, ws);
        if (!Number.isFinite(d)) continue;
        intra[p]?.push(d);
        own[ia] = Math.min(own[ia] as number, d);
        own[ib] = Math.min(own[ib] as number, d);
      }
    }
  }

  // Each take against its closest other phrases, through the decoder's own first pass and
  // alignment: the competitors a live utterance of this phrase would meet.
  const loo = templates.map((t, i) => {
    const notOwn = (j: number): boolean => j === i || (templates[j] as Template).phrase === t.phrase;
    const candidates = prune(templates, phrases.length, t, t.sketch, COMPETITORS, ws, notOwn);
    const scores = exactScores(templates, byPhrase, t, candidates, settings, ws, 3, notOwn);
    scores.push({ phrase: t.phrase, distance: own[i] as number });
    return scores.filter((s) => Number.isFinite(s.distance)).sort((x, y) => x.distance - y.distance);
  });

  const allIntra = intra.flat();
  const nearestOther = loo
    .map((scores, i) => scores.find((s) => s.phrase !== (templates[i] as Template).phrase)?.distance)
    .filter((d): d is number => d !== undefined);
  const globalScale =
    allIntra.length > 0
      ? median(allIntra)
      : nearestOther.length > 0
        ? SCALE_PRIOR_RATIO * median(nearestOther)
        : 1;
  // One scale per user: per-phrase spreads from two or three takes proved too noisy to help.
  const scales = Float32Array.from(
    intra.map(
      (list) => (list.reduce((a, b) => a + b, 0) + SCALE_SHRINK * globalScale) / (list.length + SCALE_SHRINK),
    ),
  );

  const samples: Sample[] = [];
  const unknown: Sample[] = [];
  templates.forEach((t, i) => {
    const scores = loo[i] as { phrase: number; distance: number }[];
    const [first] = scores;
    if (first !== undefined && (byPhrase[t.phrase] as number[]).length > 1) {
      samples.push(
        features(
          first.distance,
          scales[first.phrase] as number,
          rival(scores, 0),
          first.phrase === t.phrase ? 1 : 0,
        ),
      );
    }
    const others = scores.filter((s) => s.phrase !== t.phrase);
    const [o1] = others;
    if (o1 !== undefined) {
      const s = features(o1.distance, scales[o1.phrase] as number, rival(others, 0), 0);
      samples.push(s);
      unknown.push(s);
    }
  });

  const hasPositives = samples.some((s) => s.label === 1);
  const weights = hasPositives
    ? fitLogistic(samples, PRIOR_CALIBRATION.weights, 4)
    : PRIOR_CALIBRATION.weights;
  const cal: Calibration = { weights, threshold: PRIOR_CALIBRATION.threshold };
  const target = options.targetFalseAccept ?? 0.08;
  if (unknown.length >= 5) {
    // Fit the unknown phrases' scores with a normal distribution and cut at its upper
    // tail: steadier than an empirical quantile of a few dozen simulated utterances.
    const zs = unknown.map((s) => weights[0] + weights[1] * s.x1 + weights[2] * s.x2);
    const mean = zs.reduce((a, b) => a + b, 0) / zs.length;
    const sd = Math.sqrt(zs.reduce((a, b) => a + (b - mean) ** 2, 0) / (zs.length - 1));
    const zCut = mean + normalQuantile(1 - target) * sd;
    cal.threshold = Math.min(0.9, Math.max(0.05, sigmoid(zCut)));
  }
  return {
    version: MODEL_VERSION,
    settings,
    phrases,
    scales,
    templates,
    calibration: cal,
    minSilence: Math.max(options.minSilence ?? 0.3, Math.min(1.5, longestPause + 0.1)),
    trainedAt: (options.now?.() ?? new Date()).toISOString(),
  };
}

/** Inverse of the standard normal distribution (Acklam's rational approximation, central region). */
function normalQuantile(p: number): number {
  const q = Math.sqrt(-2 * Math.log(Math.min(p, 1 - p)));
  const tail =
    (((((-7.784894002430293e-3 * q - 0.3223964580411365) * q - 2.400758277161838) * q - 2.549732539343734) *
      q +
      4.374664141464968) *
      q +
      2.938163982698783) /
    ((((7.784695709041462e-3 * q + 0.3224671290700398) * q + 2.445134137142996) * q + 3.754408661907416) * q +
      1);
  return p < 0.5 ? tail : -tail;
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

function features(d1: number, scale: number, rivalDistance: number, label: number): Sample {
  return {
    x1: Math.log(d1 / scale),
    x2: Math.log(d1 / (Number.isFinite(rivalDistance) ? rivalDistance : d1 * 2)),
    label,
  };
}

/** Re-exported so callers can compute a confidence the way training did. */
export { confidence };
