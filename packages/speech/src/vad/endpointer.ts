import type { Decibels, Seconds } from '../units.js';

/** End-pointer settings. */
export interface EndpointerOptions {
  /** Silence that ends an utterance (the product's `streaming_vad_min_silence_length`). */
  minSilence?: Seconds;
  /** Voiced time needed before speech is declared started. */
  minOnset?: Seconds;
  /** Utterances with less speech than this are dropped as noise (a cough, a click). */
  minSpeech?: Seconds;
  /** Audio kept before the detected onset and after the last speech frame. */
  padding?: Seconds;
  /** Longest utterance before it is cut. */
  maxUtterance?: Seconds;
  /** Level above the noise floor that starts speech. */
  onsetDb?: Decibels;
  /** Level above the noise floor that keeps speech going. */
  sustainDb?: Decibels;
  /** Frames quieter than this are never speech. */
  absoluteFloorDb?: Decibels;
  /** Assumed noise level until the stream has shown its own quietest moments. */
  priorNoiseDb?: Decibels;
  /** The noise floor is the quietest level over this much recent audio. */
  noiseWindow?: Seconds;
  /** Frame shift of the analysis feeding the end-pointer. */
  frameShift?: Seconds;
}

/** What one frame changed. */
export type EndpointEvent =
  | { type: 'start'; startFrame: number }
  | { type: 'end'; startFrame: number; endFrame: number }
  | { type: 'cancel'; startFrame: number };

/** A detected speech region in frame indices, end exclusive. */
export interface Segment {
  startFrame: number;
  endFrame: number;
}

/**
 * Energy end-pointer with an adaptive noise floor and hysteresis. Frame-synchronous and
 * allocation-free per frame, so it runs on a live stream.
 */
export class Endpointer {
  readonly minSilenceFrames: number;
  private readonly minOnsetFrames: number;
  private readonly minSpeechFrames: number;
  /** Audio kept before an onset and after the last speech frame, in frames. */
  readonly padFrames: number;
  /** Longest utterance, in frames. */
  readonly maxFrames: number;
  private readonly onsetDb: number;
  private readonly sustainDb: number;
  private readonly floorDb: number;
  private readonly priorNoiseDb: number;
  private readonly history: Float32Array;
  private frame = 0;
  private inSpeech = false;
  private run = 0;
  private runStart = 0;
  private start = 0;
  private lastSpeech = 0;
  private voiced = 0;

  constructor(options: EndpointerOptions = {}) {
    const shift = options.frameShift ?? 0.01;
    const frames = (s: Seconds): number => Math.max(1, Math.round(s / shift));
    this.minSilenceFrames = frames(options.minSilence ?? 0.3);
    this.minOnsetFrames = frames(options.minOnset ?? 0.05);
    this.minSpeechFrames = frames(options.minSpeech ?? 0.12);
    this.padFrames = frames(options.padding ?? 0.08);
    this.maxFrames = frames(options.maxUtterance ?? 15);
    this.onsetDb = options.onsetDb ?? 10;
    this.sustainDb = options.sustainDb ?? 6;
    this.floorDb = options.absoluteFloorDb ?? -70;
    this.priorNoiseDb = options.priorNoiseDb ?? -66;
    this.history = new Float32Array(frames(options.noiseWindow ?? 2)).fill(this.priorNoiseDb);
  }

  /** True between a start event and its end or cancel event. */
  get speaking(): boolean {
    return this.inSpeech;
  }

  /**
   * While speaking and already past the end padding in silence: the frame the utterance
   * will end at if the silence holds. Lets a decoder start work before the end-point.
   */
  get provisionalEnd(): number | undefined {
    // A third of the end-point silence: early enough to finish before the end-point even
    // with 0.2 s chunks, late enough that short pauses between words rarely trigger it.
    const wait = Math.max(this.padFrames, Math.round(this.minSilenceFrames / 3));
    if (!this.inSpeech || this.frame - 1 - this.lastSpeech < wait) return undefined;
    return this.lastSpeech + 1 + this.padFrames;
  }

  /**
   * The earliest start frame an utterance not yet started can still get: its onset may
   * have begun up to the onset time ago, and its start is padded before that.
   */
  get earliestNextStart(): number {
    return this.frame - this.minOnsetFrames - this.padFrames;
  }

  /** Start frame of the open utterance. */
  get utteranceStart(): number {
    return this.start;
  }

  /** Index of the next frame to be processed. */
  get frameIndex(): number {
    return this.frame;
  }

  /** Process one frame's energy; returns an event when the state changes. */
  process(energyDb: Decibels): EndpointEvent | undefined {
    const t = this.frame++;
    // Minimum statistics: the quietest recent frame is the noise. Until a full window has
    // passed the prior stays in the window, so a stream that opens mid-word still starts.
    let noise = Infinity;
    for (let i = 0; i < this.history.length; i++) noise = Math.min(noise, this.history[i] as number);
    this.history[t % this.history.length] = Math.max(energyDb, -90);
    noise = Math.max(noise, -85);
    const loud =
      energyDb > this.floorDb && energyDb > noise + (this.inSpeech ? this.sustainDb : this.onsetDb);
    if (!this.inSpeech) {
      if (loud) {
        if (this.run === 0) this.runStart = t;
        this.run++;
        if (this.run >= this.minOnsetFrames) {
          this.inSpeech = true;
          this.start = Math.max(0, this.runStart - this.padFrames);
          this.lastSpeech = t;
          this.voiced = this.run;
          this.run = 0;
          return { type: 'start', startFrame: this.start };
        }
      } else {
        this.run = 0;
      }
      return undefined;
    }
    if (loud) {
      this.lastSpeech = t;
      this.voiced++;
    }
    if (t - this.lastSpeech >= this.minSilenceFrames || t + 1 - this.start >= this.maxFrames) {
      return this.finish(t + 1);
    }
    return undefined;
  }

  /** Close an open utterance at the end of the stream. */
  flush(): EndpointEvent | undefined {
    if (!this.inSpeech) return undefined;
    return this.finish(this.frame);
  }

  private finish(limit: number): EndpointEvent {
    this.inSpeech = false;
    this.run = 0;
    const startFrame = this.start;
    if (this.voiced < this.minSpeechFrames) return { type: 'cancel', startFrame };
    const endFrame = Math.min(limit, this.lastSpeech + 1 + this.padFrames);
    return { type: 'end', startFrame, endFrame };
  }
}

/** Run the end-pointer over a whole recording and return its speech regions. */
export function findSegments(energiesDb: ArrayLike<number>, options: EndpointerOptions = {}): Segment[] {
  const ep = new Endpointer(options);
  const segments: Segment[] = [];
  const take = (e: EndpointEvent | undefined): void => {
    if (e?.type === 'end') segments.push({ startFrame: e.startFrame, endFrame: e.endFrame });
  };
  for (let i = 0; i < energiesDb.length; i++) take(ep.process(energiesDb[i] as number));
  take(ep.flush());
  return segments;
}

/**
 * The silences between consecutive segments as a live end-pointer counts them, in frames:
 * from the last speech frame of one to the first of the next. The gap between two
 * segments is shorter by the padding on both sides; an utterance stays whole live only
 * if its `minSilence` is longer than each of these.
 */
export function silencesBetween(segments: readonly Segment[], options: EndpointerOptions = {}): number[] {
  const padding = 2 * new Endpointer(options).padFrames;
  return segments.slice(1).map((s, i) => s.startFrame - (segments[i] as Segment).endFrame + padding);
}
