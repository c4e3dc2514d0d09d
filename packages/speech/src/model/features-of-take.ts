import {
  analyse,
  frameLevels,
  SpectralAnalyser,
  utteranceFeatures,
  type FeatureMatrix,
} from '../features/features.js';
import { findSegments, type EndpointerOptions } from '../vad/endpointer.js';
import type { Seconds } from '../units.js';
import { defaultFrontEnd, type ModelSettings } from './profile.js';

/** Features of a recorded take plus what its pauses say about the speaker. */
export interface TakeFeatures {
  features: FeatureMatrix;
  /** Longest silence inside the spoken part of the take. */
  longestPause: Seconds;
  /** Duration of the spoken part. */
  speech: Seconds;
}

/**
 * Trim a take to its speech with the same end-pointer the live decoder uses (so templates
 * and live utterances are cut alike), keeping pauses inside the phrase.
 */
export function takeFeatures(
  samples: Float32Array,
  settings: ModelSettings,
  endpointer: EndpointerOptions = {},
): TakeFeatures {
  const fe = defaultFrontEnd();
  // Levels first, spectra only for the spoken part: silence around a take costs little.
  const energies = frameLevels(samples, fe);
  // A short pause threshold finds the gaps; the span still runs from first to last word.
  const segments = findSegments(energies, { ...endpointer, minSilence: 0.12 });
  let from = 0;
  let to = energies.length;
  let longestPause = 0;
  const first = segments[0];
  const last = segments[segments.length - 1];
  if (first !== undefined && last !== undefined) {
    from = first.startFrame;
    to = last.endFrame;
    for (let i = 1; i < segments.length; i++) {
      const gap =
        (segments[i] as { startFrame: number }).startFrame -
        (segments[i - 1] as { endFrame: number }).endFrame;
      longestPause = Math.max(longestPause, gap * (fe.hopSamples / fe.sampleRate));
    }
  }
  if (to <= from) {
    from = 0;
    to = energies.length;
  }
  const first0 = from * fe.hopSamples;
  const span =
    to > from
      ? new SpectralAnalyser(fe, first0 > 0 ? samples[first0 - 1] : 0).push(
          samples.subarray(first0, (to - 1) * fe.hopSamples + fe.frameSamples),
        )
      : analyse(samples, fe);
  return {
    features: utteranceFeatures(span, fe, { decimation: settings.decimation }),
    longestPause,
    speech: (span.length * fe.hopSamples) / fe.sampleRate,
  };
}
