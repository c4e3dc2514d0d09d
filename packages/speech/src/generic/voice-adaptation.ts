import { SpeechError } from '../errors.js';
import { spokenSpan } from '../model/features-of-take.js';
import { VARIANCE_FLOOR, type GaussianSet } from '../phones/acoustic-model.js';
import { modelCepstralBasis } from '../phones/posteriorgram.js';
import { TAKES_TO_JUDGE, takesInTurn } from './second-opinion.js';

/**
 * How many frames of the model's own data each Gaussian's mean is worth against the
 * person's frames that fall to it (maximum a posteriori adaptation): the smaller, the
 * further a mean moves to the person's voice. Measured at 1 on the tuning takes (docs/decisions/0127).
 */
export const VOICE_ADAPTATION_PRIOR = 1;

/**
 * Seconds of a person's words the engine is adapted on at most: aligning costs about a
 * twentieth of the audio's length. A moderate synthetic speaker's engine adapted on 60 s
 * named 56 of 104 tuning phrases, on all 550 s 68, in about half the time (measured before the
 * cepstral mean was taken over the words only, docs/decisions/0127).
 */
export const ADAPTATION_SECONDS = 60;

/** Seconds of words in a take, found as training finds them. */
export function wordSeconds(audio: Float32Array): number {
  const { start, end } = spokenSpan(audio);
  return end - start;
}

/**
 * The takes, a take of each phrase before a second of any ({@link takesInTurn}), whose audio
 * the engine is adapted to and judged on: enough for {@link ADAPTATION_SECONDS} of words and
 * {@link TAKES_TO_JUDGE} takes, whichever needs more. `audioOf` reads a take's audio (16 kHz
 * mono), so a server reads no more takes from storage than these.
 */
export async function takesToAdaptOn<T extends { text: string }>(
  takes: readonly T[],
  /** The take's audio; undefined passes it over (a take whose file cannot be read). */
  audioOf: (take: T) => Promise<Float32Array | undefined>,
): Promise<(T & { audio: Float32Array })[]> {
  const chosen: (T & { audio: Float32Array })[] = [];
  let seconds = 0;
  for (const take of takesInTurn(takes)) {
    if (seconds >= ADAPTATION_SECONDS && chosen.length >= TAKES_TO_JUDGE) break;
    const audio = await audioOf(take);
    if (audio === undefined) continue;
    seconds += wordSeconds(audio);
    chosen.push({ ...take, audio });
  }
  return chosen;
}

/** A Gaussian's share of a frame under this is left out of its statistics (it moves nothing). */
const NEGLIGIBLE_SHARE = 1e-4;
/** Filters of the model's front end (its `feat_params.json`: `nfilt` 20) and cepstra kept. */
const MEL_BANDS = 20;
const CEPSTRA = 13;

/** One phone of a forced alignment, in frames of 10 ms: `[from, to)`. */
export interface PhoneSpan {
  phone: string;
  from: number;
  to: number;
}

/**
 * The features the generic engine's model scores, from the engine's own log-mel spectrum
 * (`frames` rows of 20 bands): 13 cepstra less their mean over the take's words (the frames
 * of `spans` that are not silence or noise; every frame without spans), their deltas over
 * two frames each side and the deltas of those (`1s_c_d_dd`), 39 values a frame in the
 * model's three streams. The engine's own mean runs across utterances, and near a person's
 * words it is near theirs; the silence put around a take would pull it far off.
 */
export function modelFeatures(
  logMel: Float32Array,
  frames: number,
  spans?: readonly PhoneSpan[],
): Float32Array {
  if (logMel.length !== frames * MEL_BANDS)
    throw new SpeechError('bad_request', `Expected ${MEL_BANDS} mel bands a frame.`);
  const basis = modelCepstralBasis(MEL_BANDS);
  const cep = new Float64Array(frames * CEPSTRA);
  for (let t = 0; t < frames; t++)
    for (let c = 0; c < CEPSTRA; c++) {
      let acc = 0;
      for (let b = 0; b < MEL_BANDS; b++)
        acc += (basis[c * MEL_BANDS + b] as number) * (logMel[t * MEL_BANDS + b] as number);
      cep[t * CEPSTRA + c] = acc;
    }
  const words = (spans ?? [])
    .filter((span) => span.phone !== 'SIL' && !span.phone.startsWith('+'))
    .map((span) => [Math.max(0, span.from), Math.min(frames, span.to)] as const);
  const meanOver = words.some(([from, to]) => to > from) ? words : [[0, frames] as const];
  const mean = new Float64Array(CEPSTRA);
  let counted = 0;
  for (const [from, to] of meanOver)
    for (let t = from; t < to; t++, counted++)
      for (let c = 0; c < CEPSTRA; c++) mean[c] = (mean[c] as number) + (cep[t * CEPSTRA + c] as number);
  for (let c = 0; c < CEPSTRA; c++) mean[c] = (mean[c] as number) / Math.max(1, counted);
  const at = (t: number, c: number): number =>
    (cep[Math.max(0, Math.min(frames - 1, t)) * CEPSTRA + c] as number) - (mean[c] as number);
  const out = new Float32Array(frames * 3 * CEPSTRA);
  for (let t = 0; t < frames; t++)
    for (let c = 0; c < CEPSTRA; c++) {
      const row = t * 3 * CEPSTRA;
      out[row + c] = at(t, c);
      out[row + CEPSTRA + c] = at(t + 2, c) - at(t - 2, c);
      out[row + 2 * CEPSTRA + c] = at(t + 3, c) - at(t - 1, c) - (at(t + 1, c) - at(t - 3, c));
    }
  return out;
}

/**
 * The generic engine's phone codebooks moved towards one person's voice: maximum a
 * posteriori adaptation of the Gaussian means (each mean drawn towards the person's frames
 * that fall to it, as far as there are enough of them), from their takes aligned to the
 * phones of their phrases. Every phone of a context shares its codebook in this model, so
 * the frames of a person's few phrases move every word with the same phones.
 */
export class VoiceAdaptation {
  private readonly occupancy: Float64Array;
  private readonly firstMoment: Float64Array;
  private readonly codebookOf: Map<string, number>;
  private readonly width: number;
  /** Per value, 1 / its floored variance; per Gaussian, half the log of their product. */
  private readonly inverseVariance: Float64Array;
  private readonly halfLogDeterminant: Float64Array;
  /** Frames heard so far. */
  frames = 0;

  constructor(
    private readonly means: GaussianSet,
    variances: GaussianSet,
    phones: readonly string[],
  ) {
    if (
      means.codebooks !== phones.length ||
      variances.data.length !== means.data.length ||
      means.dims.some((d) => d !== CEPSTRA)
    )
      throw new SpeechError('bad_model', 'The acoustic model cannot be adapted: its shapes do not match.');
    this.codebookOf = new Map(phones.map((p, i) => [p, i]));
    this.width = means.streams * CEPSTRA;
    this.occupancy = new Float64Array(means.codebooks * means.streams * means.densities);
    this.firstMoment = new Float64Array(means.data.length);
    // Scored for every Gaussian of a frame's codebook, every frame: worked out once here.
    this.inverseVariance = new Float64Array(means.data.length);
    this.halfLogDeterminant = new Float64Array(this.occupancy.length);
    for (let g = 0; g < this.occupancy.length; g++)
      for (let i = 0; i < CEPSTRA; i++) {
        const v = Math.max(variances.data[g * CEPSTRA + i] as number, VARIANCE_FLOOR);
        this.inverseVariance[g * CEPSTRA + i] = 1 / v;
        this.halfLogDeterminant[g] = (this.halfLogDeterminant[g] as number) + 0.5 * Math.log(v);
      }
  }

  /** Add one take: its {@link modelFeatures} and the phones the engine aligned it to. */
  add(features: Float32Array, spans: readonly PhoneSpan[]): void {
    const { streams, densities } = this.means;
    const frames = features.length / this.width;
    const logLikelihood = new Float64Array(densities);
    for (const span of spans) {
      const codebook = this.codebookOf.get(span.phone);
      if (codebook === undefined) continue;
      for (let t = Math.max(0, span.from); t < Math.min(frames, span.to); t++) {
        this.frames++;
        for (let s = 0; s < streams; s++) {
          const frame = t * this.width + s * CEPSTRA;
          const first = (codebook * streams + s) * densities;
          let best = -Infinity;
          for (let m = 0; m < densities; m++) {
            const p = (first + m) * CEPSTRA;
            let distance = 0;
            for (let i = 0; i < CEPSTRA; i++) {
              const z = (features[frame + i] as number) - (this.means.data[p + i] as number);
              distance += z * z * (this.inverseVariance[p + i] as number);
            }
            const ll = -0.5 * distance - (this.halfLogDeterminant[first + m] as number);
            logLikelihood[m] = ll;
            if (ll > best) best = ll;
          }
          let sum = 0;
          for (let m = 0; m < densities; m++) {
            const e = Math.exp((logLikelihood[m] as number) - best);
            logLikelihood[m] = e;
            sum += e;
          }
          for (let m = 0; m < densities; m++) {
            const share = (logLikelihood[m] as number) / sum;
            if (share < NEGLIGIBLE_SHARE) continue;
            const g = first + m;
            this.occupancy[g] = (this.occupancy[g] as number) + share;
            for (let i = 0; i < CEPSTRA; i++)
              this.firstMoment[g * CEPSTRA + i] =
                (this.firstMoment[g * CEPSTRA + i] as number) + share * (features[frame + i] as number);
          }
        }
      }
    }
  }

  /**
   * The adapted means, in the model's layout. `without`: an adaptation of some of the same
   * takes (of the same model), whose frames are left out, as if only the other takes had
   * been heard. A Gaussian no frame fell to keeps its own mean.
   */
  adaptedMeans(options: AdaptationOptions = {}, without?: VoiceAdaptation): Float32Array {
    if (without !== undefined && without.occupancy.length !== this.occupancy.length)
      throw new SpeechError('bad_request', 'Adaptations of different models cannot be combined.');
    const prior = options.prior ?? VOICE_ADAPTATION_PRIOR;
    const heard = new Float64Array(this.occupancy.length);
    const sums = new Float64Array(this.firstMoment.length);
    for (let g = 0; g < heard.length; g++) {
      const n = (this.occupancy[g] as number) - (without?.occupancy[g] ?? 0);
      if (n <= 1e-9) continue;
      heard[g] = n;
      for (let i = 0; i < CEPSTRA; i++) {
        const p = g * CEPSTRA + i;
        sums[p] = (this.firstMoment[p] as number) - (without?.firstMoment[p] ?? 0);
      }
    }
    const own = this.means.data;
    const out = Float32Array.from(own);
    for (let g = 0; g < heard.length; g++) {
      const n = heard[g] as number;
      if (n === 0) continue;
      for (let i = 0; i < CEPSTRA; i++) {
        const p = g * CEPSTRA + i;
        out[p] = (prior * (own[p] as number) + (sums[p] as number)) / (prior + n);
      }
    }
    return out;
  }
}

/** How {@link VoiceAdaptation.adaptedMeans} moves the model. */
export interface AdaptationOptions {
  /** Frames of the model's own each heard Gaussian's mean is worth (MAP). */
  prior?: number;
}

const HEADER_END = 'endhdr\n';

/**
 * A Sphinx `means` file like `original` holding `means` instead: the same header and shape,
 * and the checksum the engine checks (over the shape and the values, each 32-bit word
 * rotated into it) made again.
 */
export function meansFileWith(original: Uint8Array, means: Float32Array): Uint8Array {
  const head = new TextDecoder('latin1').decode(original.subarray(0, Math.min(original.length, 4096)));
  const end = head.indexOf(HEADER_END);
  const checksummed = head.slice(0, end).includes('chksum0 yes');
  const tail = checksummed ? 4 : 0;
  const dataAt = original.length - tail - means.length * 4;
  // Byte order word, then codebooks, streams, densities, one length per stream and the count.
  const shapeAt = end + HEADER_END.length + 4;
  if (end < 0 || dataAt < shapeAt)
    throw new SpeechError('bad_model', 'The means file does not fit these means.');
  const out = original.slice();
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  if (view.getUint32(end + HEADER_END.length, true) !== 0x11223344)
    throw new SpeechError('bad_model', 'The means file is not little-endian.');
  means.forEach((v, i) => view.setFloat32(dataAt + i * 4, v, true));
  if (checksummed) {
    let sum = 0;
    for (let p = shapeAt; p < dataAt + means.length * 4; p += 4)
      sum = ((((sum << 20) | (sum >>> 12)) >>> 0) + view.getUint32(p, true)) >>> 0;
    view.setUint32(out.length - 4, sum, true);
  }
  return out;
}
