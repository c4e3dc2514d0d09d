import { serializeProfile, trainProfile, type TrainingItem } from '@parla/speech';

export interface TrainedProfile {
  bytes: Uint8Array;
  phrases: number;
  takes: number;
  modelFormat: number;
  trainMs: number;
}

/** Trains and serialises a profile; pure computation, run in a worker thread by the server. */
export function trainAndSerialize(items: TrainingItem[]): TrainedProfile {
  const started = performance.now();
  const profile = trainProfile(items);
  const bytes = serializeProfile(profile);
  return {
    bytes,
    // The slot of utterances marked as none of the user's phrases is not a phrase.
    phrases: profile.phrases.length - (profile.unknownPhrase === undefined ? 0 : 1),
    takes: items.length,
    modelFormat: profile.version,
    trainMs: Math.round(performance.now() - started),
  };
}
