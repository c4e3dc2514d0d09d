import {
  analyseTake,
  decodeTakeAnalysis,
  decodeTakeView,
  encodeTakeAnalysis,
  encodeTakeView,
  encoderJudgesAmong,
  encoderHearsTake,
  encoderTemplate,
  keptView,
  serializeEncoderViews,
  serializeProfile,
  trainProfile,
  SecondOpinion,
  type SpeechEncoder,
  type Take,
} from '@parla/speech';
import { adaptToVoice, loadSoundSwallower, loadSpeechEncoder } from '@parla/speech/node';

/** A take as training receives it: the analysis and the encoder's view kept from an earlier
 * training, and its audio (16 kHz mono) when either is not kept yet. */
export interface TakeToTrain {
  text: string;
  unknown: boolean;
  audio?: Float32Array;
  analysis?: Uint8Array;
  encoderView?: Uint8Array;
}

/** What a training job hands its worker. */
export interface TrainingRequest {
  takes: TakeToTrain[];
  /**
   * All of the person's phrases and the takes (audio, `takesToAdaptOn`) the generic path is
   * adapted to and judged on: how well it knows this voice decides whether it may answer for
   * phrases not yet recorded.
   */
  judge?: { phrases: string[]; takes: Take[] };
}

export interface TrainedProfile {
  bytes: Uint8Array;
  phrases: number;
  takes: number;
  modelFormat: number;
  trainMs: number;
  /** Per take, the analysis made of its audio to keep beside it; null for takes that came
   * with theirs. */
  analyses: (Uint8Array | null)[];
  /**
   * The speech encoder's views of the phrase takes (docs/decisions/0146): the file kept beside
   * the profile (absent when a take had neither a kept view nor audio), and per take the view
   * made of its audio to keep beside it (null for takes that came with theirs, and takes of
   * no phrase). Absent altogether for fewer phrases than the encoder is asked among, and when
   * the encoder could not run (`encoderFailed` says why).
   */
  encoderViews?: { file: Uint8Array | undefined; made: (Uint8Array | null)[]; ms: number };
  encoderFailed?: string;
  /** The share of the judged takes the generic path named right (absent when not judged). */
  genericKnows?: number;
  judgeMs?: number;
  /**
   * The generic path's means adapted to the person's voice (compact, `adaptToVoice`) and the
   * share of the judged takes it named right with them, each judged by means adapted without
   * it (absent when not judged, or when no take could be aligned).
   */
  voice?: { means: Uint8Array; knows: number; adaptMs: number };
}

/**
 * Trains, and when asked to, judges the generic path on the person's voice, as it is (for
 * the browser) and adapted to them (for the server, docs/decisions/0128).
 */
export async function trainAndJudge(request: TrainingRequest): Promise<TrainedProfile> {
  const trained = { ...trainAndSerialize(request.takes), ...(await viewedByTheEncoder(request.takes)) };
  if (request.judge === undefined || request.judge.takes.length === 0) return trained;
  const { phrases, takes } = request.judge;
  soundSwallower ??= loadSoundSwallower();
  const module = await soundSwallower.catch((error: unknown) => {
    soundSwallower = undefined;
    throw error;
  });
  const started = performance.now();
  const genericKnows = await genericPathKnows(module, phrases, takes);
  const judged = performance.now();
  const adapted = await adaptToVoice(module, phrases, [...new Set(takes.map((take) => take.text))], takes);
  return {
    ...trained,
    genericKnows,
    judgeMs: Math.round(judged - started),
    ...(adapted === undefined
      ? {}
      : {
          voice: {
            means: adapted.voice,
            knows: adapted.knows,
            adaptMs: Math.round(performance.now() - judged),
          },
        }),
  };
}

/**
 * The generic engine, loaded once a worker: a worker trains again and again (`TrainingWorkers`),
 * and each load is a WebAssembly instance the engine's runtime holds on to for good.
 */
let soundSwallower: ReturnType<typeof loadSoundSwallower> | undefined;

/** The encoder, loaded once a worker and only when a take has no kept view (its model
 * compiled and warmed up: one to two seconds). */
let encoder: Promise<SpeechEncoder> | undefined;

/**
 * The phrase takes as the speech encoder sees them: a kept view read back, any other made
 * from the take's audio (about 30 ms a second of it, the costly part, so made once a take).
 * An encoder that cannot run leaves the profile without them, never without a profile.
 */
async function viewedByTheEncoder(
  takes: readonly TakeToTrain[],
): Promise<Pick<TrainedProfile, 'encoderViews' | 'encoderFailed'>> {
  // Among fewer phrases the opinion is never asked: views made now would wait unused, and
  // viewing costs seconds. They are made when the sixth phrase is trained.
  if (!encoderJudgesAmong(takes.filter((take) => !take.unknown).map((take) => take.text))) return {};
  const started = performance.now();
  try {
    const made: (Uint8Array | null)[] = [];
    const templates = [];
    let whole = true;
    for (const take of takes) {
      let view =
        take.unknown || take.encoderView === undefined ? undefined : decodeTakeView(take.encoderView);
      if (!take.unknown && view === undefined && take.audio !== undefined) {
        encoder ??= loadSpeechEncoder();
        view = keptView(await (await encoder).view(encoderHearsTake(take.audio)));
        made.push(encodeTakeView(view));
      } else made.push(null);
      if (view !== undefined) templates.push(encoderTemplate(take.text, view));
      else if (!take.unknown) whole = false;
    }
    // Views of some takes only would judge a phrase against some of its rivals.
    const file = whole ? serializeEncoderViews(templates) : undefined;
    return { encoderViews: { file, made, ms: Math.round(performance.now() - started) } };
  } catch (error) {
    encoder = undefined;
    return { encoderFailed: error instanceof Error ? error.message : String(error) };
  }
}

/** How well the generic path names the person's takes among all of their phrases (0..1). */
async function genericPathKnows(
  module: Awaited<ReturnType<typeof loadSoundSwallower>>,
  phrases: string[],
  takes: Take[],
): Promise<number> {
  const engine = await SecondOpinion.load(module);
  try {
    engine.use(
      phrases,
      takes.map((take) => take.text),
    );
    return engine.knows(takes);
  } finally {
    engine.delete();
  }
}

/** Trains and serialises a profile; pure computation, run in a worker thread by the server. */
export function trainAndSerialize(takes: TakeToTrain[]): TrainedProfile {
  const started = performance.now();
  const kept = takes.map((take) =>
    take.analysis === undefined ? undefined : decodeTakeAnalysis(take.analysis),
  );
  const made = takes.map((take, i) =>
    kept[i] === undefined && take.audio !== undefined ? analyseTake(take.audio) : undefined,
  );
  const profile = trainProfile(
    takes.map((take, i) => ({ text: take.text, unknown: take.unknown, analysis: kept[i] ?? made[i] })),
  );
  const bytes = serializeProfile(profile);
  return {
    bytes,
    // The slot of utterances marked as none of the user's phrases is not a phrase.
    phrases: profile.phrases.length - (profile.unknownPhrase === undefined ? 0 : 1),
    takes: takes.length,
    modelFormat: profile.version,
    trainMs: Math.round(performance.now() - started),
    analyses: made.map((span) => (span === undefined ? null : encodeTakeAnalysis(span))),
  };
}
