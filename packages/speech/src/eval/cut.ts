import { normaliseText } from '../model/profile.js';
import type { Decision } from './evaluate.js';

/**
 * Where the rejection cut goes (docs/decisions/0061, 0063): the loosest bias at which at
 * most one unknown item is accepted on each FSDD tuning set and under 5 % on each
 * synthetic one. Decisions are replayed, not decoded again: a bias only moves the
 * confidence's logit, so whether each utterance would be accepted at another bias follows
 * from the confidence it got.
 */
export type CutRule = 'none' | 'at-most-one' | 'under-5-percent';

/** One tuning set's decisions, as decoded with the built rejection bias. */
export interface TuningRun {
  name: string;
  rule: CutRule;
  /** Whether it is one of the sets the house rule holds and its mean accuracy judges by. */
  ruled: boolean;
  /** The calibration bias the decisions were decoded with. */
  bias: number;
  decisions: Pick<Decision, 'speaker' | 'reference' | 'inVocabulary' | 'top' | 'confidence' | 'session'>[];
}

/** A set's figures at one bias. */
export interface CutFigures {
  accuracy: number;
  falseAccepts: number;
  top1: number;
  /** Speakers whose own unknown items are accepted 5 % of the time or more. */
  usersOver5: number;
  /** Speakers with unknown items. */
  usersWithUnknown: number;
}

/** How far above the cut an utterance's evidence lies once the bias is taken out. */
export function margin(confidence: number, bias: number): number {
  return Math.log(confidence / (1 - confidence)) - bias;
}

const accepted = (confidence: number, decodedBias: number, bias: number): boolean =>
  margin(confidence, decodedBias) + bias >= 0;

/** Largest multiple of 0.01 strictly below `limit`. */
function gridBelow(limit: number): number {
  const steps = Math.ceil(Math.round(limit * 1e6) / 1e4);
  return (steps - 1) / 100;
}

/**
 * The loosest bias one set's rule allows, on the grid: the bias just under the one at
 * which its first refused unknown item would be accepted. Undefined for a set without a
 * rule or with too few unknown items to bind.
 */
export function setLimit(run: TuningRun): number | undefined {
  if (run.rule === 'none') return undefined;
  const unknown = run.decisions
    .filter((d) => !d.inVocabulary)
    .map((d) => margin(d.confidence, run.bias))
    .sort((a, b) => b - a);
  const allowed = run.rule === 'at-most-one' ? 1 : Math.ceil(0.05 * unknown.length) - 1;
  const firstRefused = unknown[allowed];
  return firstRefused === undefined ? undefined : gridBelow(-firstRefused);
}

/** The loosest bias that keeps every ruled set within its rule; undefined when none binds. */
export function houseRuleBias(runs: readonly TuningRun[]): number | undefined {
  const limits = runs
    .filter((r) => r.ruled)
    .map(setLimit)
    .filter((l): l is number => l !== undefined);
  return limits.length > 0 ? Math.min(...limits) : undefined;
}

/** A set's accuracy after rejection, false accepts and top-1 at `bias`. */
export function figuresAt(run: TuningRun, bias: number): CutFigures {
  const right = (d: TuningRun['decisions'][number]): boolean =>
    d.top !== null && normaliseText(d.top) === normaliseText(d.reference);
  const known = run.decisions.filter((d) => d.inVocabulary);
  const unknown = run.decisions.filter((d) => !d.inVocabulary);
  const isAccepted = (d: TuningRun['decisions'][number]): boolean => accepted(d.confidence, run.bias, bias);
  const speakers = [...new Set(unknown.map((d) => d.speaker))];
  const usersOver5 = speakers.filter((s) => {
    const mine = unknown.filter((d) => d.speaker === s);
    return mine.filter(isAccepted).length / mine.length >= 0.05;
  }).length;
  const share = (n: number, of: number): number => (of > 0 ? n / of : 0);
  return {
    accuracy: share(known.filter((d) => right(d) && isAccepted(d)).length, known.length),
    falseAccepts: share(unknown.filter(isAccepted).length, unknown.length),
    top1: share(known.filter(right).length, known.length),
    usersOver5,
    usersWithUnknown: speakers.length,
  };
}

/** Mean accuracy over the sets that count, at `bias`. */
export function meanAccuracy(runs: readonly TuningRun[], bias: number): number {
  const counted = runs.filter((r) => r.ruled);
  return counted.reduce((sum, r) => sum + figuresAt(r, bias).accuracy, 0) / Math.max(1, counted.length);
}
