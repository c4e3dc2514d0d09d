import { dtw, dtwPath, equalLengthDtw, type DtwOptions, type DtwWorkspace, type Sequence } from './dtw.js';
import type { Seconds } from '../units.js';
import {
  cepstralDims,
  defaultFrontEnd,
  matchesPhones,
  type Calibration,
  type Hinge,
  type LoudRoomAllowance,
  type ModelSettings,
  type Prepared,
  type Template,
} from './profile.js';

/** Distance of an utterance to one phrase: its nearest template. */
export interface PhraseScore {
  phrase: number;
  distance: number;
  /** The template that scored `distance` (-1 when none did). */
  template: number;
}

/**
 * A word heard over a talking room is cut where it rises over the room's level, and loses
 * soft edges its templates, cut in a quiet room, hold (0.35-0.47 s against 0.48-0.67 s for
 * FSDD's digits): up to `frames` matching frames at each end of a template may be left out,
 * at `costShare` of the cost of leaving out an utterance's quiet end (docs/decisions/0088).
 */
export const TEMPLATE_EDGES = { frames: 4, costShare: 0.5 } as const;

/**
 * Exact alignment cost of an utterance against one template. Long utterances are aligned
 * at half or a quarter of the frame rate; the choice depends on the query alone so
 * every phrase is scored on the same footing. With `endSkipCost`, the utterance's quiet
 * ends (`query.quietEnds`) may be left out at that cost a frame (docs/decisions/0074), and
 * a weighed utterance's template edges too (`TEMPLATE_EDGES`).
 */
export function align(
  query: Prepared,
  t: Template,
  settings: ModelSettings,
  ws: DtwWorkspace,
  abandonAbove = Infinity,
  endSkipCost?: number,
): number {
  const ends = query.quietEnds;
  const options = { band: settings.band, abandonAbove, split: viewSplit(settings) };
  // Heard over a talking room (its frames weighed), a word may have lost its soft edges.
  const edges = query.weights === undefined ? undefined : endSkipCost;
  const at = (rate: number): DtwOptions => {
    const edgeFrames = Math.round(TEMPLATE_EDGES.frames / rate);
    return {
      ...options,
      endSkip:
        endSkipCost === undefined || ends === undefined
          ? undefined
          : { cost: endSkipCost, lead: Math.floor(ends.lead / rate), tail: Math.floor(ends.tail / rate) },
      templateSkip:
        edges === undefined
          ? undefined
          : { cost: edges * TEMPLATE_EDGES.costShare, lead: edgeFrames, tail: edgeFrames },
    };
  };
  if (query.frames > 3 * settings.halveAbove) return dtw(query.quarter, t.quarter, at(4), ws);
  if (query.frames > settings.halveAbove) return dtw(query.half, t.half, at(2), ws);
  return dtw(query, t, at(1), ws);
}

/** Where the phone view starts in a frame (cepstra and their deltas come first). */
export function viewSplit(settings: ModelSettings): number | undefined {
  return matchesPhones(settings) ? cepstralDims(settings) : undefined;
}

/** How many phrases the first pass keeps for exact alignment. */
export function pruneCount(phraseCount: number, settings: ModelSettings): number {
  return Math.min(phraseCount, settings.pruneMin + Math.ceil(settings.pruneShare * phraseCount));
}

/** What the first pass reads of a template. */
export type SketchOnly = Pick<Template, 'phrase' | 'frames' | 'sketch'>;

/** First-pass cost between two sketches: a tight alignment of fixed-size summaries plus a duration term. */
export function sketchDistance(
  query: Sequence,
  queryFrames: number,
  t: SketchOnly,
  ws: DtwWorkspace,
): number {
  return dtw(query, t.sketch, { band: SKETCH_BAND }, ws) + lengthTerm(queryFrames, t.frames);
}

/** The sketch alignment's band: sketches differ in the order of their sounds, not in tempo. */
const SKETCH_BAND = 0.25;

/** How unlike two utterances' lengths are, in the first pass's units. */
function lengthTerm(queryFrames: number, templateFrames: number): number {
  return 0.5 * Math.abs(Math.log(queryFrames / templateFrames));
}

/**
 * Every take's sketch ready to compare with every other's, as training's first pass does:
 * each as a query (its floats) and as a template (its 8-bit values times the step), both
 * held as 64-bit floats so that one alignment routine reads one kind of array.
 * `distance(i, j)` is bit for bit `sketchDistance` of take `i`'s query sketch against
 * template `j`, in about two thirds of the time.
 */
export class SketchTable {
  private readonly asQuery: Float64Array[];
  private readonly asTemplate: Float64Array[];
  private readonly frames: number[];
  /** Every sketch's size: the profile's `sketchSegments` frames of one dimension. */
  private readonly segments: number;
  private readonly dim: number;

  constructor(templates: readonly Template[], queries: readonly Prepared[]) {
    this.segments = templates[0]?.sketch.frames ?? 0;
    this.dim = templates[0]?.sketch.dim ?? 0;
    this.asQuery = queries.map((q) => Float64Array.from(q.sketch.data));
    this.asTemplate = templates.map((t) => {
      const values = new Float64Array(t.sketch.data.length);
      for (let k = 0; k < values.length; k++) values[k] = t.sketch.step * (t.sketch.data[k] as number);
      return values;
    });
    this.frames = templates.map((t) => t.frames);
  }

  distance(i: number, j: number, ws: DtwWorkspace): number {
    const cost = equalLengthDtw(
      this.asQuery[i] as Float64Array,
      this.asTemplate[j] as Float64Array,
      this.segments,
      this.dim,
      SKETCH_BAND,
      ws,
    );
    return cost + lengthTerm(this.frames[i] as number, this.frames[j] as number);
  }
}

/**
 * Cheap first pass: the best sketch distance per phrase, then the `count` closest phrases.
 * `skip` hides templates (the take itself during leave-one-out calibration).
 */
export function prune(
  templates: readonly SketchOnly[],
  phraseCount: number,
  query: Sequence,
  querySketch: Sequence,
  count: number,
  ws: DtwWorkspace,
  skip?: (index: number) => boolean,
): number[] {
  const best = new Float64Array(phraseCount).fill(Infinity);
  for (let i = 0; i < templates.length; i++) {
    if (skip?.(i) === true) continue;
    const t = templates[i] as SketchOnly;
    const d = sketchDistance(querySketch, query.frames, t, ws);
    if (d < (best[t.phrase] as number)) best[t.phrase] = d;
  }
  return closestPhrases(best, count);
}

/** The `count` phrases of smallest finite distance in `best` (one per phrase), nearest first. */
export function closestPhrases(best: ArrayLike<number>, count: number): number[] {
  const order: number[] = [];
  for (let p = 0; p < best.length; p++) if (Number.isFinite(best[p])) order.push(p);
  order.sort((x, y) => (best[x] as number) - (best[y] as number));
  return order.slice(0, count);
}

/**
 * Exact alignment against the templates of the candidate phrases, best first. Alignments
 * that cannot enter the top `keep` are abandoned early, so only the winners cost in full.
 * `endSkipCostOf` gives a phrase's cost of leaving out a quiet end frame (live only).
 */
export function exactScores(
  templates: readonly Template[],
  byPhrase: readonly (readonly number[])[],
  query: Prepared,
  candidates: readonly number[],
  settings: ModelSettings,
  ws: DtwWorkspace,
  keep = 3,
  skip?: (index: number) => boolean,
  endSkipCostOf?: (phrase: number) => number | undefined,
): PhraseScore[] {
  const scores: PhraseScore[] = [];
  const top: number[] = [];
  for (const phrase of candidates) {
    let best = Infinity;
    let bestTemplate = -1;
    for (const ti of byPhrase[phrase] ?? []) {
      if (skip?.(ti) === true) continue;
      const limit = top.length >= keep ? (top[keep - 1] as number) : Infinity;
      const d = align(
        query,
        templates[ti] as Template,
        settings,
        ws,
        Math.min(limit, best),
        endSkipCostOf?.(phrase),
      );
      if (d < best) {
        best = d;
        bestTemplate = ti;
      }
    }
    scores.push({ phrase, distance: best, template: bestTemplate });
    if (Number.isFinite(best)) {
      top.push(best);
      top.sort((x, y) => x - y);
    }
  }
  return scores.sort((x, y) => x.distance - y.distance);
}

/**
 * The competition a phrase's score is judged against: the mean distance of the two best
 * other phrases. An utterance of an enrolled phrase sits well below its rivals; an unknown
 * phrase is about as far from its nearest phrase as from the next ones.
 */
export function rival(scores: readonly PhraseScore[], index: number): number {
  let a = Infinity;
  let b = Infinity;
  for (let i = 0; i < scores.length; i++) {
    if (i === index) continue;
    const d = (scores[i] as PhraseScore).distance;
    if (d < a) {
      b = a;
      a = d;
    } else if (d < b) {
      b = d;
    }
  }
  if (!Number.isFinite(a)) return Infinity;
  return Number.isFinite(b) ? (a + b) / 2 : a;
}

/** Length of the stretch of an utterance {@link misfit} looks for. */
export const MISFIT_WINDOW: Seconds = 0.3;

/** Matching frames in `seconds` of an utterance. */
function matchingFrames(seconds: Seconds, settings: ModelSettings): number {
  const fe = defaultFrontEnd();
  return Math.max(1, Math.round((seconds * fe.sampleRate) / (fe.hopSamples * settings.decimation)));
}

/**
 * How unevenly an utterance fits a template: the worst {@link MISFIT_WINDOW} of the
 * utterance, or of the template, against the mean along their alignment (the log of the
 * ratio), each frame's distance the mean over the frames of the other side it is aligned
 * with. A repetition of a phrase fits about evenly; an unknown phrase that shares words
 * with an enrolled one fits well where the words are the same and badly where they differ
 * or are missing (docs/decisions/0058, 0059). Aligned at the full rate, on the cepstral
 * view. Undefined for an utterance no longer than `settings.misfitAbove` (the window
 * itself in files before format 10).
 */
export function misfit(query: Sequence, t: Template, settings: ModelSettings): number | undefined {
  const window = matchingFrames(MISFIT_WINDOW, settings);
  if (query.frames <= Math.max(window, matchingFrames(settings.misfitAbove ?? MISFIT_WINDOW, settings)))
    return undefined;
  const queryFrames = new FrameMeans(query.frames);
  const templateFrames = new FrameMeans(t.frames);
  for (const [i, j, d] of dtwPath(query, t, cepstralDims(settings), settings.band)) {
    queryFrames.add(i, d);
    templateFrames.add(j, d);
  }
  // Both sides: a stretch of the utterance that fits nothing in the template (a different
  // word), and a stretch of the template that nothing in the utterance fits (a word the
  // utterance left out, as "cold" against "I am cold"). Files before format 10 (no
  // misfitAbove) looked at the utterance's side alone.
  const own = queryFrames.worstOver(window);
  return settings.misfitAbove === undefined ? own : Math.max(own, templateFrames.worstOver(window));
}

/** The distances along an alignment gathered per frame of one side. */
class FrameMeans {
  private readonly sum: Float64Array;
  private readonly count: Float64Array;
  constructor(frames: number) {
    this.sum = new Float64Array(frames);
    this.count = new Float64Array(frames);
  }
  add(frame: number, distance: number): void {
    this.sum[frame] = (this.sum[frame] as number) + distance;
    this.count[frame] = (this.count[frame] as number) + 1;
  }
  /** Log of the worst `window` frames' mean distance over the mean of every frame, each
   * frame's distance the mean over the frames of the other side it is aligned with; 0 when
   * the side is no longer than the window. */
  worstOver(window: number): number {
    const frames = this.sum.length;
    if (frames <= window) return 0;
    const mean = new Float64Array(frames);
    let total = 0;
    for (let i = 0; i < frames; i++) {
      const c = this.count[i] as number;
      mean[i] = c > 0 ? (this.sum[i] as number) / c : 0;
      total += mean[i] as number;
    }
    const overall = total / frames;
    if (!(overall > 1e-9)) return 0;
    let run = 0;
    let worst = 0;
    for (let i = 0; i < frames; i++) {
      run += (mean[i] as number) - (i >= window ? (mean[i - window] as number) : 0);
      if (i >= window - 1) worst = Math.max(worst, run / window);
    }
    return Math.log(worst / overall);
  }
}

/** What a match says about whether its phrase is right. */
export interface MatchEvidence {
  /** Alignment distance to the phrase's nearest template. */
  distance: number;
  /** The matched template's impostor scale (format 2), or its phrase's spread (format 1). */
  scale: number;
  /** The rival phrases' distance ({@link rival}). */
  rival: number;
  /** The match's {@link misfit}; undefined when it has none or the calibration ignores it. */
  misfit?: number | undefined;
  /** The typical distance between two takes of the matched phrase. */
  spread?: number | undefined;
  /** Words in the matched phrase (`Hinge.leavesPhrasesToMisfit`); undefined, it counts as one. */
  words?: number | undefined;
  /** How far the utterance rose over its room, when it was heard live (`Calibration.loudRoom`). */
  riseDb?: number | undefined;
  /**
   * Heard live over a room talking too loud to hear the person over, in the person's own
   * voice (`VOICE_OVER_ROOM_ALLOWANCE`).
   */
  byVoice?: boolean | undefined;
}

/**
 * Calibrated probability that a phrase is right, from its distance relative to a scale
 * and to its rivals; with a fourth weight, from its {@link misfit} against the user's
 * typical one (a match without one is judged on the other terms; format 8 files, whose
 * bias holds the typical misfit, count it as 0); and with `beyondRepetition`, from how
 * much farther it lies than the user's repetitions of the phrase lie from each other (and
 * with `farBeyondRepetition`, more steeply further out, where the misfit cannot tell); with
 * `loudRoom`, allowing for a live utterance that rose over its room less than the user's
 * takes rose over theirs.
 */
export function confidence(cal: Calibration, e: MatchEvidence): number {
  if (!Number.isFinite(e.distance)) return 0;
  const [w0, w1, w2, w3 = 0] = cal.weights;
  const unevenness =
    cal.typicalMisfit === undefined
      ? (e.misfit ?? 0)
      : e.misfit === undefined
        ? 0
        : e.misfit - cal.typicalMisfit;
  const roomAllowance = loudRoomAllowance(cal.loudRoom, e.riseDb);
  // Over a room louder than the takes', a known phrase lies far beyond the user's
  // repetitions too: the steeper hinge speaks only where the room allows nothing.
  const far =
    hinge(cal.beyondRepetition, e) +
    (roomAllowance > 0 || e.byVoice === true ? 0 : hinge(steeperFor(cal.farBeyondRepetition, e), e));
  const z =
    w0 +
    w1 * Math.log(e.distance / e.scale) +
    w2 * Math.log(e.distance / (Number.isFinite(e.rival) ? e.rival : e.distance * 2)) +
    w3 * unevenness +
    far +
    roomAllowance +
    (e.byVoice === true && cal.loudRoom !== undefined ? VOICE_OVER_ROOM_ALLOWANCE : 0);
  return 1 / (1 + Math.exp(-z));
}

/**
 * The steeper hinge where it judges this match: from format 28, not a phrase of several
 * words heard long enough for a misfit, which tells a word that differs (docs/decisions/0126).
 */
function steeperFor(h: Hinge | undefined, e: MatchEvidence): Hinge | undefined {
  const phrase = e.words !== undefined && e.words > 1 && e.misfit !== undefined;
  return h?.leavesPhrasesToMisfit === true && phrase ? undefined : h;
}

/** `weight` a unit of log distance beyond `above` times the matched phrase's spread. */
function hinge(h: Hinge | undefined, e: MatchEvidence): number {
  if (h === undefined || e.spread === undefined) return 0;
  return h.weight * Math.max(0, Math.log(e.distance / e.spread) - h.above);
}

/**
 * What `confidence` allows besides `loudRoomAllowance` an utterance heard over a room that
 * talks too loud to hear the person over (docs/decisions/0076) when it sounds like their
 * voice (`voiceDistortion` under `VOICE_LIKE_LINE`), in sigmoid units. There most of the
 * person's phrases were the best match and still rejected, far under the cut, while the
 * room's own words read unlike their voice; at 20 dB, where the person is heard over the
 * room, the same allowance let FSDD's unknown digits through (docs/decisions/0096).
 */
export const VOICE_OVER_ROOM_ALLOWANCE = 1;

/** What `confidence` allows an utterance that rose `riseDb` over its room (see `Calibration`). */
export function loudRoomAllowance(room: LoudRoomAllowance | undefined, riseDb: number | undefined): number {
  if (room === undefined || riseDb === undefined) return 0;
  const share = (room.riseDb - riseDb - room.fromDb) / (room.fullDb - room.fromDb);
  return room.weight * Math.min(1, Math.max(0, share));
}
