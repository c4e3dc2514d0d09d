import { SAMPLE_RATE, type Decibels, type Hz, type Seconds } from '../units.js';
import { RealPowerSpectrum } from './fft.js';

/** Front-end settings; the defaults are what profiles are trained with. */
export interface FrontEndOptions {
  sampleRate?: Hz;
  frameLength?: Seconds;
  frameShift?: Seconds;
  melBands?: number;
  minFrequency?: Hz;
  maxFrequency?: Hz;
  cepstra?: number;
}

/** One triangular filter: its weights from FFT bin `start` on. */
export interface MelFilter {
  start: number;
  weights: Float32Array;
}

/** Bands of the phone acoustic model's analysis: 20 filters from 130 to 3700 Hz (its `feat_params.json`). */
export const PHONE_BANDS = 20;

/** Resolved front-end settings. */
export interface FrontEnd {
  sampleRate: Hz;
  frameSamples: number;
  hopSamples: number;
  fftSize: number;
  melBands: number;
  cepstra: number;
  filters: MelFilter[];
  /** The filters of the phone acoustic model's own analysis (`src/phones`). */
  phoneFilters: MelFilter[];
  window: Float32Array;
  dct: Float32Array;
  spectrum: RealPowerSpectrum;
}

const hzToMel = (f: number): number => 1127 * Math.log(1 + f / 700);
const melToHz = (m: number): number => 700 * (Math.exp(m / 1127) - 1);

/** Triangular filters equally spaced on the mel scale between `minHz` and `maxHz`. */
function melFilters(fftSize: number, sampleRate: Hz, bands: number, minHz: Hz, maxHz: Hz): MelFilter[] {
  const lo = hzToMel(minHz);
  const hi = hzToMel(maxHz);
  const bins = fftSize / 2 + 1;
  const filters: MelFilter[] = [];
  for (let b = 0; b < bands; b++) {
    const f0 = melToHz(lo + ((hi - lo) * b) / (bands + 1));
    const f1 = melToHz(lo + ((hi - lo) * (b + 1)) / (bands + 1));
    const f2 = melToHz(lo + ((hi - lo) * (b + 2)) / (bands + 1));
    const weights: number[] = [];
    let start = -1;
    for (let k = 0; k < bins; k++) {
      const f = (k * sampleRate) / fftSize;
      const w = f <= f0 || f >= f2 ? 0 : f <= f1 ? (f - f0) / (f1 - f0) : (f2 - f) / (f2 - f1);
      if (w > 0) {
        if (start < 0) start = k;
        weights.push(w);
      } else if (start >= 0) {
        break;
      }
    }
    // Very narrow low filters can fall between bins: give them the nearest bin.
    if (start < 0) {
      start = Math.min(bins - 1, Math.round((f1 * fftSize) / sampleRate));
      weights.push(1);
    }
    filters.push({ start, weights: Float32Array.from(weights) });
  }
  return filters;
}

/** Build the filterbank, window and DCT once per configuration. */
export function createFrontEnd(options: FrontEndOptions = {}): FrontEnd {
  const sampleRate = options.sampleRate ?? SAMPLE_RATE;
  const frameSamples = Math.round((options.frameLength ?? 0.025) * sampleRate);
  const hopSamples = Math.round((options.frameShift ?? 0.01) * sampleRate);
  let fftSize = 1;
  while (fftSize < frameSamples) fftSize <<= 1;
  const melBands = options.melBands ?? 32;
  const cepstra = options.cepstra ?? 20;
  const filters = melFilters(
    fftSize,
    sampleRate,
    melBands,
    options.minFrequency ?? 60,
    options.maxFrequency ?? Math.min(7600, sampleRate / 2),
  );
  const phoneFilters = melFilters(fftSize, sampleRate, PHONE_BANDS, 130, Math.min(3700, sampleRate / 2));
  const window = new Float32Array(frameSamples);
  for (let i = 0; i < frameSamples; i++)
    window[i] = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (frameSamples - 1));
  const dct = new Float32Array(cepstra * melBands);
  for (let c = 0; c < cepstra; c++) {
    for (let b = 0; b < melBands; b++) {
      dct[c * melBands + b] = Math.sqrt(2 / melBands) * Math.cos((Math.PI * c * (b + 0.5)) / melBands);
    }
  }
  return {
    sampleRate,
    frameSamples,
    hopSamples,
    fftSize,
    melBands,
    cepstra,
    filters,
    phoneFilters,
    window,
    dct,
    spectrum: new RealPowerSpectrum(fftSize),
  };
}

/** One analysis frame: log-mel energies and the frame's log energy in dB full scale. */
export interface SpectralFrame {
  logMel: Float32Array;
  /** Log energies of the phone model's filters, from the same spectrum; only from an
   * analyser asked for them (they cost a tenth or more of the analysis). */
  phoneMel?: Float32Array;
  energyDb: number;
}

/**
 * Incremental analysis: push samples in any chunk size, get frames as soon as they are
 * complete. Holds no state beyond the unfinished frame, so a live stream costs the same
 * per second as a file.
 */
export class SpectralAnalyser {
  private readonly fe: FrontEnd;
  private pending: Float32Array;
  private raw: Float32Array;
  private pendingLength = 0;
  private lastSample = 0;
  private readonly frame: Float64Array;
  private readonly power: Float64Array;
  private readonly withPhoneBands: boolean;

  /**
   * `previousSample` is the sample before the first one pushed, when analysis starts
   * mid-signal; `withPhoneBands` adds the phone model's filters to every frame.
   */
  constructor(frontEnd: FrontEnd, previousSample = 0, withPhoneBands = false) {
    this.lastSample = previousSample;
    this.withPhoneBands = withPhoneBands;
    this.fe = frontEnd;
    this.pending = new Float32Array(frontEnd.frameSamples * 4);
    this.raw = new Float32Array(frontEnd.frameSamples * 4);
    this.frame = new Float64Array(frontEnd.fftSize);
    this.power = new Float64Array(frontEnd.fftSize / 2 + 1);
  }

  /** Feed samples; returns the frames completed by them. */
  push(samples: Float32Array): SpectralFrame[] {
    const fe = this.fe;
    const needed = this.pendingLength + samples.length;
    if (needed > this.pending.length) {
      const grown = new Float32Array(Math.max(needed, this.pending.length * 2));
      grown.set(this.pending.subarray(0, this.pendingLength));
      this.pending = grown;
      const grownRaw = new Float32Array(grown.length);
      grownRaw.set(this.raw.subarray(0, this.pendingLength));
      this.raw = grownRaw;
    }
    // Pre-emphasis is applied on the way in so frames overlap consistently.
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i] as number;
      this.pending[this.pendingLength + i] = s - 0.97 * this.lastSample;
      this.raw[this.pendingLength + i] = s;
      this.lastSample = s;
    }
    this.pendingLength = needed;
    const frames: SpectralFrame[] = [];
    let start = 0;
    while (start + fe.frameSamples <= this.pendingLength) {
      frames.push(this.analyse(start));
      start += fe.hopSamples;
    }
    if (start > 0) {
      this.pending.copyWithin(0, start, this.pendingLength);
      this.raw.copyWithin(0, start, this.pendingLength);
      this.pendingLength -= start;
    }
    return frames;
  }

  private analyse(start: number): SpectralFrame {
    const fe = this.fe;
    const { frame, power } = this;
    let mean = 0;
    let rawMean = 0;
    for (let i = 0; i < fe.frameSamples; i++) {
      mean += this.pending[start + i] as number;
      rawMean += this.raw[start + i] as number;
    }
    mean /= fe.frameSamples;
    rawMean /= fe.frameSamples;
    // Level for the end-pointer from the signal as recorded, not the pre-emphasised one.
    const energyDb = levelDb(this.raw, start, fe.frameSamples, rawMean);
    for (let i = 0; i < fe.frameSamples; i++)
      frame[i] = ((this.pending[start + i] as number) - mean) * (fe.window[i] as number);
    fe.spectrum.compute(frame, power);
    const logMel = applyFilters(fe.filters, power);
    if (!this.withPhoneBands) return { logMel, energyDb };
    return { logMel, phoneMel: applyFilters(fe.phoneFilters, power), energyDb };
  }
}

function applyFilters(filters: readonly MelFilter[], power: Float64Array): Float32Array {
  const out = new Float32Array(filters.length);
  // A plain loop: this runs for every frame of every stream.
  for (let b = 0; b < filters.length; b++) {
    const f = filters[b] as MelFilter;
    let e = 0;
    for (let k = 0; k < f.weights.length; k++) e += (power[f.start + k] as number) * (f.weights[k] as number);
    // The floor stands in for a quiet room so digital silence does not dominate.
    out[b] = Math.log(e + 1e-7);
  }
  return out;
}

/** Frame level in dB full scale, from the mean-removed samples as recorded. */
function levelDb(samples: Float32Array, start: number, length: number, mean: number): number {
  let energy = 0;
  for (let i = 0; i < length; i++) energy += ((samples[start + i] as number) - mean) ** 2;
  return 10 * Math.log10(energy / length + 1e-12);
}

/**
 * Only the per-frame levels the end-pointer needs, on the same frame grid as the full
 * analysis and with the same values, at a fraction of its cost.
 */
export function frameLevels(samples: Float32Array, frontEnd: FrontEnd): Float64Array {
  const n =
    samples.length < frontEnd.frameSamples
      ? 0
      : Math.floor((samples.length - frontEnd.frameSamples) / frontEnd.hopSamples) + 1;
  const out = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const start = t * frontEnd.hopSamples;
    let mean = 0;
    for (let i = 0; i < frontEnd.frameSamples; i++) mean += samples[start + i] as number;
    out[t] = levelDb(samples, start, frontEnd.frameSamples, mean / frontEnd.frameSamples);
  }
  return out;
}

/** Analyse a whole signal at once. */
export function analyse(samples: Float32Array, frontEnd: FrontEnd, withPhoneBands = false): SpectralFrame[] {
  return new SpectralAnalyser(frontEnd, 0, withPhoneBands).push(samples);
}

/** Options for turning frames into matching features. */
export interface FeatureOptions {
  /** Average this many consecutive frames into one to halve the alignment cost. */
  decimation?: number;
  /** Regression half-width for the delta coefficients. */
  deltaWindow?: number;
  /** How much of each cepstrum's spread within the utterance is divided out: 1 scales
   * every cepstrum to unit variance, 0.75 (profiles from format 12) three quarters of the
   * way in the log domain (see {@link normaliseColumns}). */
  variancePower?: number;
  /** Cepstra per frame, at most the front end's (20); the first ones are kept. */
  cepstra?: number;
  /** Log-mel energies more than this many dB under the utterance's loudest are raised to
   * that level; absent: only the front end's fixed floor. */
  dynamicRange?: Decibels;
}

/** Features of one utterance: `frames` rows of `dim` values, row-major. */
export interface FeatureMatrix {
  frames: number;
  dim: number;
  data: Float32Array;
  /** Matching frames at each end quieter than the utterance's speech (see `quietEnds`). */
  quietEnds?: QuietEnds;
  /** How much each matching frame counts in alignment (`Sequence.weights`). */
  weights?: Float32Array | undefined;
}

/** How many matching frames at the start and at the end of an utterance are quiet. */
export interface QuietEnds {
  lead: number;
  tail: number;
}

/**
 * Cepstra with per-utterance mean and variance normalisation plus deltas. Normalising
 * within the utterance removes the microphone, the room and the speaker's loudness of the
 * day, which for a personal recogniser vary more than the phonetics do. The variance is
 * only partly divided out when `variancePower` is below 1: in a short word it depends on
 * which sounds the word holds as much as on the microphone (docs/decisions/0061).
 */
export function utteranceFeatures(
  frames: readonly SpectralFrame[],
  frontEnd: FrontEnd,
  options: FeatureOptions = {},
): FeatureMatrix {
  const decimation = Math.max(1, options.decimation ?? 2);
  const deltaWindow = options.deltaWindow ?? 2;
  const nc = Math.min(frontEnd.cepstra, options.cepstra ?? frontEnd.cepstra);
  const nb = frontEnd.melBands;
  const n = Math.max(1, Math.floor(frames.length / decimation));
  const floor = options.dynamicRange === undefined ? -Infinity : rangeFloor(frames, options.dynamicRange);
  const ceps = new Float32Array(n * nc);
  // The matching frame's log-mel energies: the mean of its analysis frames, floored.
  const mel = new Float64Array(nb);
  for (let t = 0; t < n; t++) {
    mel.fill(0);
    for (let d = 0; d < decimation; d++) {
      const frame = frames[Math.min(frames.length - 1, t * decimation + d)];
      if (frame === undefined) continue;
      for (let b = 0; b < nb; b++) mel[b] = (mel[b] as number) + Math.max(floor, frame.logMel[b] as number);
    }
    for (let c = 0; c < nc; c++) {
      let acc = 0;
      for (let b = 0; b < nb; b++) acc += (frontEnd.dct[c * nb + b] as number) * (mel[b] as number);
      ceps[t * nc + c] = acc / decimation;
    }
  }
  normaliseColumns(ceps, n, nc, options.variancePower);
  const dim = nc * 2;
  const data = new Float32Array(n * dim);
  let denom = 0;
  for (let k = 1; k <= deltaWindow; k++) denom += 2 * k * k;
  for (let t = 0; t < n; t++) {
    for (let c = 0; c < nc; c++) {
      data[t * dim + c] = ceps[t * nc + c] as number;
      let acc = 0;
      for (let k = 1; k <= deltaWindow; k++) {
        const a = Math.min(n - 1, t + k);
        const b = Math.max(0, t - k);
        acc += k * ((ceps[a * nc + c] as number) - (ceps[b * nc + c] as number));
      }
      data[t * dim + nc + c] = acc / denom;
    }
  }
  return { frames: n, dim, data };
}

/**
 * The level `range` dB under the loudest log-mel energy of the frames (natural log). Under
 * it a band holds nothing a listener would hear beside the speech: in audio from a
 * narrower channel than the profile's (an 8 kHz headset), its empty upper bands wander at
 * the resampler's floor, 40-60 dB down, and would read as spectral detail
 * (docs/decisions/0066).
 */
export function rangeFloor(frames: readonly SpectralFrame[], range: Decibels): number {
  let peak = -Infinity;
  for (const frame of frames)
    for (let b = 0; b < frame.logMel.length; b++) peak = Math.max(peak, frame.logMel[b] as number);
  return peak - range / (10 / Math.LN10);
}

/** Zero mean per column, in place, and each column divided by its standard deviation
 * raised to `power` (1: unit variance). */
export function normaliseColumns(data: Float32Array, rows: number, cols: number, power = 1): void {
  for (let c = 0; c < cols; c++) {
    let mean = 0;
    for (let t = 0; t < rows; t++) mean += data[t * cols + c] as number;
    mean /= rows;
    let variance = 0;
    for (let t = 0; t < rows; t++) variance += ((data[t * cols + c] as number) - mean) ** 2;
    const scale = (variance / rows + 1e-3) ** (-power / 2);
    for (let t = 0; t < rows; t++) data[t * cols + c] = ((data[t * cols + c] as number) - mean) * scale;
  }
}
