import type { Decibels } from '../units.js';
import type { SpectralFrame } from './features.js';

/**
 * How band-limited recordings are told apart (docs/decisions/0066). A recording made at
 * 8 kHz (a telephone, a Bluetooth headset in its narrow-band mode, many older recorders)
 * holds nothing above 4 kHz once resampled to 16 kHz: its highest mel band (7.2-7.6 kHz)
 * sits 35-45 dB under its loudest band, at the resampler's floor. Speech recorded at full
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
  const levels = Array.from({ length: bands }, (_, b) => bandLevel(takes, b));
  return (levels[bands - 1] as number) > Math.max(...levels) - BAND_LIMIT.emptyBelow;
}

/** Band `b`'s {@link BAND_LIMIT.quantile} level over all frames, in dB. */
function bandLevel(takes: readonly (readonly SpectralFrame[])[], b: number): Decibels {
  const column = Float32Array.from(
    takes.flatMap((take) => take.map((frame) => frame.logMel[b] as number)),
  ).sort();
  return (10 / Math.LN10) * (column[Math.floor(BAND_LIMIT.quantile * (column.length - 1))] as number);
}
