import {
  analyseTake,
  decodeTakeAnalysis,
  encodeTakeAnalysis,
  serializeProfile,
  trainProfile,
} from '@parla/speech';

/** A take as training receives it: the analysis kept from an earlier training, or its audio
 * (16 kHz mono) when there is none yet. */
export interface TakeToTrain {
  text: string;
  unknown: boolean;
  audio?: Float32Array;
  analysis?: Uint8Array;
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
