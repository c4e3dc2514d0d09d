import type { Decibels } from '../units.js';
import type { SpectralFrame } from './features.js';

/**
 * How band-limited recordings are told apart (docs/decisions/0066). A recording made at
 * 8 kHz (a telephone, a Bluetooth headset in its narrow-band mode, many older recorders)
 * holds nothing above 4 kHz once resampled to 16 kHz: its highest mel band (7.2-7.6 kHz)
 * sits 40-50 dB under its loudest band, at the resampler's floor. Speech recorded at full
 * band keeps it within about 20 dB, even muffled or in noise.
 */
export const BAND_LIMIT = {
  /** The highest band this far under the loudest band or more: the recording is band-limited. */
  emptyBelow: 30 as Decibels,
  /** The level a band reaches in an utterance: its loudest twentieth of frames. */
  quantile: 0.95,
} as const;

/**
 * Whether these recordings fill every mel band, judged on all their frames together (the
 * loud ones deciding, so a quiet take or a pause does not move it). True without frames:
 * nothing says otherwise.
 */
export function fillsEveryBand(takes: readonly (readonly SpectralFrame[])[]): boolean {
  const bands = takes.find((t) => t.length > 0)?.[0]?.logMel.length ?? 0;
  if (bands === 0) return true;
  const levels = bandLevels(takes, bands);
  return (levels[bands - 1] as number) > Math.max(...levels) - BAND_LIMIT.emptyBelow;
}

/** Levels are counted in steps of this many dB from {@link LOWEST} up: fine enough for a
 * 30 dB test, and one pass over the frames instead of a sort per band. */
const STEP: Decibels = 0.5;
const LOWEST: Decibels = -100;
const STEPS = 400;

/** Each band's {@link BAND_LIMIT.quantile} level over all frames, in dB. */
function bandLevels(takes: readonly (readonly SpectralFrame[])[], bands: number): number[] {
  const counts = new Uint32Array(bands * STEPS);
  const toSteps = 10 / Math.LN10 / STEP;
  let frames = 0;
  for (const take of takes) {
    for (const frame of take) {
      for (let b = 0; b < bands; b++) {
        const step = Math.floor((frame.logMel[b] as number) * toSteps - LOWEST / STEP);
        const at = b * STEPS + Math.min(STEPS - 1, Math.max(0, step));
        counts[at] = (counts[at] as number) + 1;
      }
      frames++;
    }
  }
  const rank = Math.floor(BAND_LIMIT.quantile * (frames - 1));
  return Array.from({ length: bands }, (_, b) => {
    let seen = 0;
    let step = 0;
    while (step < STEPS - 1 && (seen += counts[b * STEPS + step] as number) <= rank) step++;
    return LOWEST + (step + 0.5) * STEP;
  });
}
