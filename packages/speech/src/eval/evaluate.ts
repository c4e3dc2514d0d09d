import { Matcher } from '../decode/matcher.js';
import { RecognitionStream, type StreamEvent } from '../decode/streaming.js';
import {
  encoderHears,
  encoderHearsTake,
  encoderTemplate,
  type EncoderTemplate,
  type SpeechEncoder,
} from '../encoder/encoder-view.js';
import { encoderHearsAgain, withEncoderOpinion } from '../encoder/third-opinion.js';
import { AnsweredStream, type AnsweredEvents } from '../generic/answered-stream.js';
import { GENERIC_KNOWS_THE_VOICE, type SecondOpinion } from '../generic/second-opinion.js';
import { takesToAdaptOn } from '../generic/voice-adaptation.js';
import { normaliseText } from '../model/profile.js';
import { CONFIRMATIONS_PER_RETRAIN, correctionChoices, takesForTraining } from '../model/learning.js';
import { trainProfile, type TrainOptions } from '../model/train.js';
import { CHUNK_SAMPLES, type Milliseconds } from '../units.js';

/** A manifest item with its audio already at 16 kHz mono. */
export interface LoadedItem {
  text: string;
  speaker: string;
  audio: Float32Array;
  /** The recording session, where the manifest says. */
  session?: string;
  /** The audio's path as the manifest gives it, to name a file in a report. */
  source?: string;
  /** Imported and kept as the app records a phrase (`keptAsImported`): trained on as such. */
  keptAsRecorded?: boolean;
}

/** The figures the evaluation reports for one recogniser. */
export interface Metrics {
  accuracy: number;
  oov_false_accept: number;
  ms_per_utterance: number;
  p95_final_ms: number;
  train_ms: number;
}

/** One test decision, for error analysis. */
export interface Decision {
  speaker: string;
  reference: string;
  inVocabulary: boolean;
  hypothesis: string | null;
  /** Best phrase before rejection (for analysis). */
  top: string | null;
  confidence: number;
  ms: Milliseconds;
  finalMs: Milliseconds;
  /** The test item's recording session, where the manifest says. */
  session?: string;
  /** The test item's audio as its manifest names it. */
  source?: string;
}

/** Something that recognises a whole test file through its streaming interface. */
export interface Recogniser {
  /** Decode one file, fed as the client would; returns the answer and timings. */
  run(audio: Float32Array): Promise<{
    text: string | null;
    top: string | null;
    /** The phrases the app would offer to pick instead (see `correctionChoices`). */
    choices: string[];
    confidence: number;
    ms: Milliseconds;
    finalMs: Milliseconds;
  }>;
  /** The user confirmed that `audio` was `text`, or picked `text` (only with `adapt`): learn from it. */
  confirm?(text: string, audio: Float32Array): Promise<void>;
  /** The user said `audio`, which got an answer, was none of their phrases (only with `adapt`). */
  markUnknown?(audio: Float32Array): Promise<void>;
}

/** Build recognisers per speaker; `trainMs` is the time spent building it. */
export type RecogniserFactory = (
  enrol: LoadedItem[],
) => Promise<{ recogniser: Recogniser; trainMs: Milliseconds }>;

/** Wall-clock in milliseconds, from whichever clock the platform has. */
export const now = (): Milliseconds => performance.now();

/**
 * Feed audio in client-sized chunks and time every call. The cost of the last call that
 * produced a result is the end-point latency: the work left once the user stopped.
 */
export function feedChunks<R>(
  push: (chunk: Float32Array) => R[],
  end: () => R[],
  audio: Float32Array,
  chunk = CHUNK_SAMPLES,
): { results: R[]; ms: Milliseconds; finalMs: Milliseconds } {
  const results: R[] = [];
  let ms = 0;
  let finalMs = 0;
  const timed = (call: () => R[]): void => {
    const t0 = now();
    const out = call();
    const spent = now() - t0;
    ms += spent;
    if (out.length > 0) {
      results.push(...out);
      finalMs = spent;
    }
  };
  for (let i = 0; i < audio.length; i += chunk)
    timed(() => push(audio.subarray(i, Math.min(audio.length, i + chunk))));
  timed(end);
  return { results, ms, finalMs };
}

type Final = Extract<StreamEvent, { type: 'final' }>;

/**
 * The generic path hearing finals again, as the server and the browser do for a voice it
 * knows (0102-0104): it names phrases not yet recorded, seconds the personal path's
 * rejected guesses and doubts its answers near the cut. With `unrecordedEvery`, one phrase in that many (in sorted order) has
 * its takes left out of training, to measure the latter.
 */
export interface GenericHearingTrial {
  unrecordedEvery?: number;
  /**
   * The generic path for a person's phrases, those in `recorded` having takes (`takes`, which
   * it may adapt to).
   */
  create(
    phrases: string[],
    recorded: string[],
    takes: readonly { text: string; audio: Float32Array }[],
  ): Promise<SecondOpinion | undefined>;
  /**
   * How well an engine it created knows the voice, where the trial judged that itself;
   * otherwise the engine's own judgement of the recorded takes decides.
   */
  knowsOf?(engine: SecondOpinion): number | undefined;
}

/**
 * The generic path for one speaker, as the server and the browser have it: only for a voice
 * it knows (`GENERIC_KNOWS_THE_VOICE` of their recorded takes named right), else undefined.
 */
export async function forKnownVoice(
  trial: GenericHearingTrial,
  enrol: readonly { text: string }[],
  recorded: readonly { text: string; audio: Float32Array }[],
): Promise<SecondOpinion | undefined> {
  const generic = await trial.create(
    [...new Set(enrol.map((e) => e.text))],
    [...new Set(recorded.map((e) => e.text))],
    recorded,
  );
  if (generic === undefined) return undefined;
  // Judged either way: the engine's running mean then starts on the voice, as it always has here.
  const own = generic.knows(recorded);
  if ((trial.knowsOf?.(generic) ?? own) >= GENERIC_KNOWS_THE_VOICE) return generic;
  generic.delete();
  return undefined;
}

/** The phrases of `enrol` that a trial treats as not yet recorded. */
export function unrecordedIn(enrol: readonly LoadedItem[], every: number | undefined): Set<string> {
  if (every === undefined) return new Set();
  const phrases = [...new Set(enrol.map((e) => normaliseText(e.text)))].sort();
  return new Set(phrases.filter((_, i) => i % every === 0));
}

/**
 * The personal recogniser exactly as the server and browser run it. Confirmed utterances
 * are learnt as the server learns them: every {@link CONFIRMATIONS_PER_RETRAIN} of them
 * the profile is retrained on the enrolment takes and the latest confirmed ones, and the
 * generic path adapted again to the phrase takes it trains on ({@link takesToAdaptOn}).
 */
export function personalFactory(
  options: TrainOptions = {},
  trial?: GenericHearingTrial,
  encoder?: SpeechEncoder,
): RecogniserFactory {
  return async (enrol) => {
    const t0 = now();
    const withheld = unrecordedIn(enrol, trial?.unrecordedEvery);
    const recorded = enrol
      .filter((e) => !withheld.has(normaliseText(e.text)))
      .map((e) => ({
        text: e.text,
        audio: e.audio,
        confirmed: false,
        keptAsRecorded: e.keptAsRecorded === true,
        unknown: false,
      }));
    const profile = trainProfile(recorded, options);
    let matcher = new Matcher(profile, options.phones);
    let generic = trial === undefined ? undefined : await forKnownVoice(trial, enrol, recorded);
    // A trial (docs/decisions/0144): the recorded takes as a speech model's encoder sees them.
    const encoderTemplates: EncoderTemplate[] = [];
    if (encoder !== undefined)
      for (const take of recorded)
        encoderTemplates.push(encoderTemplate(take.text, await encoder.view(encoderHearsTake(take.audio))));
    const trainMs = now() - t0;
    // The user's answers, each a confirmed take (of a phrase, or marked unknown).
    const answered: { text: string; audio: Float32Array; confirmed: true; unknown: boolean }[] = [];
    const learn = async (take: (typeof answered)[number]): Promise<void> => {
      answered.push(take);
      if (answered.length % CONFIRMATIONS_PER_RETRAIN !== 0) return;
      const takes = takesForTraining([...recorded, ...answered]);
      matcher = new Matcher(trainProfile(takes, options), options.phones);
      if (trial === undefined) return;
      const phraseTakes = takes.filter((t) => !t.unknown);
      const adaptOn = await takesToAdaptOn(phraseTakes, (t) => Promise.resolve(t.audio));
      generic?.delete();
      generic = await forKnownVoice(trial, enrol, adaptOn);
    };
    const recogniser: Recogniser = {
      confirm: (text, audio) => learn({ text, audio, confirmed: true, unknown: false }),
      markUnknown: (audio) => learn({ text: '', audio, confirmed: true, unknown: true }),
      run: async (audio) => {
        // The generic path follows the stream's utterances as they are spoken, as on the
        // server and in the browser; its cost counts where it is spent.
        const stream = new AnsweredStream(
          new RecognitionStream(matcher),
          () => generic,
          Math.ceil(audio.length / 16_000) + 1,
        );
        const finalsWithAnswers = ({ found, answered }: AnsweredEvents): [found: Final, answered: Final][] =>
          found.flatMap((event, i) => (event.type === 'final' ? [[event, answered[i] as Final]] : []));
        const {
          results: finals,
          ms,
          finalMs,
        } = feedChunks(
          (c) => finalsWithAnswers(stream.push(c)),
          () => finalsWithAnswers(stream.end()),
          audio,
        );
        // A file is one phrase; if the end-pointer split it, the profile's most confident
        // piece speaks for it, as the generic path answered it.
        let best = finals.reduce<(typeof finals)[number] | undefined>(
          (b, f) => (b === undefined || f[0].confidence > b[0].confidence ? f : b),
          undefined,
        )?.[1];
        let thirdOpinionMs = 0;
        if (encoder !== undefined && best !== undefined && encoderHearsAgain(best, encoderTemplates)) {
          // The final's own span, as a live stream's is heard; its time counts towards the final's.
          const t1 = now();
          const view = await encoder.view(encoderHears(audio, best.start, best.end));
          best = withEncoderOpinion(best, view, encoderTemplates);
          thirdOpinionMs = now() - t1;
        }
        const top = best?.alternatives[0]?.text ?? null;
        const text = best?.text ?? null;
        return {
          text,
          top,
          choices: best === undefined ? [] : correctionChoices(best),
          confidence: best?.confidence ?? 0,
          ms: ms + thirdOpinionMs,
          finalMs: finalMs + thirdOpinionMs,
        };
      },
    };
    return { recogniser, trainMs };
  };
}

function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0;
}

const round = (x: number, digits = 4): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** Summarise decisions into the reported figures. */
export function summarise(decisions: Decision[], trainMs: number): Metrics {
  return summariseWith(decisions, trainMs).metrics;
}

/** Figures plus the top-1 accuracy before rejection, which tells rejection errors from matching errors. */
export function summariseWith(decisions: Decision[], trainMs: number): { metrics: Metrics; top1: number } {
  const inv0 = decisions.filter((d) => d.inVocabulary);
  const top1 = inv0.filter(
    (d) => d.top !== null && normaliseText(d.top) === normaliseText(d.reference),
  ).length;
  return { metrics: summariseMetrics(decisions, trainMs), top1: inv0.length > 0 ? top1 / inv0.length : 0 };
}

function summariseMetrics(decisions: Decision[], trainMs: number): Metrics {
  const inv = decisions.filter((d) => d.inVocabulary);
  const oov = decisions.filter((d) => !d.inVocabulary);
  const correct = inv.filter(
    (d) => d.hypothesis !== null && normaliseText(d.hypothesis) === normaliseText(d.reference),
  );
  return {
    accuracy: round(inv.length > 0 ? correct.length / inv.length : 0),
    oov_false_accept: round(
      oov.length > 0 ? oov.filter((d) => d.hypothesis !== null).length / oov.length : 0,
    ),
    ms_per_utterance: round(decisions.reduce((a, d) => a + d.ms, 0) / Math.max(1, decisions.length), 3),
    p95_final_ms: round(
      percentile(
        decisions.map((d) => d.finalMs),
        0.95,
      ),
      3,
    ),
    train_ms: round(trainMs, 1),
  };
}

/** Evaluation settings. */
export interface EvaluateOptions {
  /**
   * Simulate a user who answers the app's question after each result as the app asks it:
   * "That's right" to a right answer, the phrase they meant when a wrong or rejected answer
   * offers it among its choices, and "Not one of my phrases" when an unknown phrase got an
   * answer. The recogniser learns from each as the server does.
   * Test items are then taken in a fixed shuffled order, so that takes of one phrase do not
   * arrive all in a row; items marked with a session are shuffled within it, and the
   * sessions taken in the order they first appear, as time passes for a user.
   */
  adapt?: boolean;
}

/** A fixed pseudo-random order (the same on every run). */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Items grouped by session (in the order each first appears), each group in a fixed shuffled order. */
function inSessionOrder(items: LoadedItem[], seed: number): LoadedItem[] {
  const sessions = new Map<string | undefined, LoadedItem[]>();
  for (const item of items) {
    const list = sessions.get(item.session);
    if (list === undefined) sessions.set(item.session, [item]);
    else list.push(item);
  }
  return [...sessions.values()].flatMap((list) => shuffled(list, seed));
}

/** Whether the simulated user confirms a result as `meant`: it said so, or it offers it as a choice. */
function confirmsAs(result: { text: string | null; choices: string[] }, meant: string): boolean {
  const key = normaliseText(meant);
  return [result.text ?? '', ...result.choices].some((text) => normaliseText(text) === key);
}

/** Evaluate one recogniser over enrolment and test items grouped by speaker. */
export async function evaluate(
  enrol: LoadedItem[],
  test: LoadedItem[],
  factory: RecogniserFactory,
  options: EvaluateOptions = {},
): Promise<{ overall: Metrics; speakers: Record<string, Metrics>; decisions: Decision[] }> {
  const speakers = [...new Set(enrol.map((e) => e.speaker))].sort();
  const all: Decision[] = [];
  const perSpeaker: Record<string, Metrics> = {};
  let trainTotal = 0;
  for (const speaker of speakers) {
    const mine = enrol.filter((e) => e.speaker === speaker);
    const vocabulary = new Set(mine.map((e) => normaliseText(e.text)));
    const { recogniser, trainMs } = await factory(mine);
    trainTotal += trainMs;
    const decisions: Decision[] = [];
    const mineTest = test.filter((t) => t.speaker === speaker);
    for (const item of options.adapt === true ? inSessionOrder(mineTest, 20260101) : mineTest) {
      const r = await recogniser.run(item.audio);
      decisions.push({
        speaker,
        reference: item.text,
        inVocabulary: vocabulary.has(normaliseText(item.text)),
        hypothesis: r.text,
        top: r.top,
        confidence: r.confidence,
        ms: r.ms,
        finalMs: r.finalMs,
        ...(item.session === undefined ? {} : { session: item.session }),
        ...(item.source === undefined ? {} : { source: item.source }),
      });
      if (options.adapt === true) {
        if (confirmsAs(r, item.text)) await recogniser.confirm?.(item.text, item.audio);
        else if (r.text !== null && !vocabulary.has(normaliseText(item.text)))
          await recogniser.markUnknown?.(item.audio);
      }
    }
    perSpeaker[speaker] = summarise(decisions, trainMs);
    all.push(...decisions);
  }
  return {
    overall: summarise(all, trainTotal / Math.max(1, speakers.length)),
    speakers: perSpeaker,
    decisions: all,
  };
}
