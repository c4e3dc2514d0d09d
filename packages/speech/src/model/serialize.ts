import { SpeechError } from '../errors.js';
import { crc32 } from './crc32.js';
import type { Quantised } from './dtw.js';
import { VOICE_CEPSTRA } from './voice-print.js';
import {
  cepstralDims,
  defaultFrontEnd,
  FULL_CEPSTRA,
  MODEL_VERSION,
  modelVersionFor,
  PHONE_MODEL_VERSION,
  makeTemplate,
  templateOf,
  templateStep,
  type Calibration,
  type ModelSettings,
  type Profile,
  type Template,
} from './profile.js';

const MAGIC = 'PRLM';
/**
 * What every file this build writes ends with: this tag, then the CRC-32 of every byte
 * before it (u32, little-endian). A file changed anywhere after it was written (a disk, a
 * cache or a copy that damaged it) is refused instead of loading as other templates or
 * other scales. Files written before it end with their templates, and are read as before:
 * builds before it read the templates and leave the seal.
 */
const SEAL = 'CRC1';
const SEAL_BYTES = 8;

interface Header {
  version: number;
  settings: ModelSettings;
  phrases: string[];
  scales: number[];
  /** Format 2 on: each template's impostor scale, in file order. */
  templateScales?: number[];
  calibration: Calibration;
  minSilence: number;
  trainedAt: string;
  /** Phone formats: the user's mean phone cepstrum. */
  phoneMean?: number[];
  /** Format 6 on: the within-phrase whitening of the cepstral view, row-major. */
  whitening?: number[];
  /** Format 4 on: the phrase slot of utterances marked as none of the user's phrases. */
  unknownPhrase?: number;
  /** Format 24 on: the person's voice print, its codebook row-major. */
  voice?: { bands: number; codebook: number[]; scale: number };
  dim: number;
  /** Per-dimension quantisation step (the same for every dimension since templates are
   * held quantised; older files have one per dimension). */
  steps: number[];
  /** Phrase number and frame count of each template, in file order. */
  templates: [number, number][];
}

/**
 * Serialise a profile: magic, format version, a JSON header, every template's features as
 * the 8-bit integers the profile holds, then the seal (`SEAL`). About 1 KB per second of
 * enrolled speech.
 */
export function serializeProfile(profile: Profile): Uint8Array {
  const dim = profile.templates[0]?.dim ?? 0;
  const steps = new Array<number>(dim).fill(profile.step);
  const header: Header = {
    version: profile.version,
    settings: profile.settings,
    phrases: profile.phrases,
    scales: Array.from(profile.scales),
    templateScales: Array.from(profile.templateScales, (x) => Number(x.toPrecision(6))),
    calibration: profile.calibration,
    minSilence: profile.minSilence,
    trainedAt: profile.trainedAt,
    ...(profile.phoneMean === undefined ? {} : { phoneMean: Array.from(profile.phoneMean) }),
    ...(profile.unknownPhrase === undefined ? {} : { unknownPhrase: profile.unknownPhrase }),
    ...(profile.whitening === undefined
      ? {}
      : { whitening: Array.from(profile.whitening, (x) => Number(x.toPrecision(9))) }),
    ...(profile.voice === undefined
      ? {}
      : {
          voice: {
            bands: profile.voice.bands,
            codebook: Array.from(profile.voice.codebook, (x) => Number(x.toPrecision(5))),
            scale: profile.voice.scale,
          },
        }),
    dim,
    steps,
    templates: profile.templates.map((t) => [t.phrase, t.frames]),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const body = profile.templates.reduce((n, t) => n + t.data.length, 0);
  const out = new Uint8Array(10 + json.length + body + SEAL_BYTES);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = MAGIC.charCodeAt(i);
  view.setUint16(4, modelVersionFor(profile.settings), true);
  view.setUint32(6, json.length, true);
  out.set(json, 10);
  let p = 10 + json.length;
  for (const t of profile.templates) {
    out.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.length), p);
    p += t.data.length;
  }
  for (let i = 0; i < 4; i++) out[p + i] = SEAL.charCodeAt(i);
  view.setUint32(p + 4, crc32(out.subarray(0, p)), true);
  return out;
}

/**
 * Whether a profile file is as it was written, as far as its seal tells: false for a sealed
 * file whose sum differs; true for a file from before the seal, which has none to break.
 * A check for keepers of files (a browser's cache), cheaper than reading the profile.
 */
export function sealHolds(bytes: Uint8Array): boolean {
  if (!sealed(bytes)) return true;
  const end = bytes.length - SEAL_BYTES;
  return (
    crc32(bytes.subarray(0, end)) === new DataView(bytes.buffer, bytes.byteOffset).getUint32(end + 4, true)
  );
}

/** Whether a file ends with a seal (`SEAL`): its tag, whatever its sum says. */
function sealed(bytes: Uint8Array): boolean {
  const at = bytes.length - SEAL_BYTES;
  return at >= 10 && String.fromCharCode(...bytes.subarray(at, at + 4)) === SEAL;
}

/** Formats this build reads: format 1 files decode exactly as before (phrase scales); 2
 * and 3 are 4 and 5 without the unknown slot, 4 and 5 are 6 and 7 without whitening, 6
 * and 7 are 8 and 9 without the misfit weight, 8 and 9 are 10 and 11 with the typical
 * misfit in the bias and a one-sided misfit for every utterance longer than its window,
 * 10 and 11 are 12 and 13 with every cepstrum scaled to unit variance, 12 and 13 are 14
 * and 15 with twenty cepstra and deltas over two frames either side always, 14 is 16
 * with every pause kept (15, the phone format, keeps them still), 16 is 18 with no
 * floor under the quietest bands, 18 is 20 with every live frame aligned, 20 is 22
 * with no allowance for a louder room, 22 is 24 without the person's voice print, 24
 * is 26 without the steeper hinge far beyond repetition, and 26 is 28 with that hinge
 * judging phrases of every length. */
const READABLE_VERSIONS = new Set([
  ...Array.from({ length: 16 }, (_, i) => i + 1),
  18,
  20,
  22,
  24,
  26,
  PHONE_MODEL_VERSION,
  MODEL_VERSION,
]);

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
/** A hinge beyond repetition: two finite numbers, `above` and `weight`; from format 28 the
 * steeper one may hold `leavesPhrasesToMisfit`, true. */
const hingeValid = (x: unknown, version: number, steeper = false): boolean => {
  if (typeof x !== 'object' || x === null) return false;
  const { above, weight, leavesPhrasesToMisfit } = x as Record<string, unknown>;
  return (
    finite(above) &&
    finite(weight) &&
    (leavesPhrasesToMisfit === undefined || (steeper && version >= 28 && leavesPhrasesToMisfit === true))
  );
};
/** A whole number from 1 to `max`. */
const countUpTo =
  (max: number) =>
  (x: unknown): boolean =>
    typeof x === 'number' && Number.isInteger(x) && x >= 1 && x <= max;
/** Widest delta window a file may ask for: a quarter of a second either side. */
const MAX_DELTA_WINDOW = 12;

/**
 * The settings that changed the features or the scoring, each with the format it came in
 * and the values that keep the features the ones the templates were made of; a file that
 * claims one earlier, or holds another value, is damaged.
 */
const SETTINGS_SINCE: { [K in keyof ModelSettings]?: { version: number; valid: (x: unknown) => boolean } } = {
  misfitAbove: { version: 10, valid: (x) => finite(x) && x >= 0 },
  variancePower: { version: 12, valid: (x) => finite(x) && x > 0 && x <= 1 },
  cepstra: { version: 14, valid: countUpTo(FULL_CEPSTRA) },
  deltaWindow: { version: 14, valid: countUpTo(MAX_DELTA_WINDOW) },
  pauseFloor: { version: 16, valid: (x) => finite(x) && x > 0 },
  dynamicRange: { version: 18, valid: (x) => finite(x) && x > 0 },
  endSkip: {
    version: 20,
    valid: (x) =>
      typeof x === 'object' &&
      x !== null &&
      Object.keys(x).length === 2 &&
      'quietBelowDb' in x &&
      'cost' in x &&
      finite(x.quietBelowDb) &&
      x.quietBelowDb > 0 &&
      finite(x.cost) &&
      x.cost > 0,
  },
};

function settingsValid(settings: unknown, version: number): settings is ModelSettings {
  if (typeof settings !== 'object' || settings === null) return false;
  return Object.entries(SETTINGS_SINCE).every(([key, since]) => {
    const value: unknown = (settings as Record<string, unknown>)[key];
    return value === undefined || (version >= since.version && since.valid(value));
  });
}

/**
 * The header's parts every format has, each of the shape the templates are read by: the
 * phrases, a whole number of dimensions with a step for each, templates of known phrases
 * and whole frames, and lists of scales. A file damaged there would otherwise fail in the
 * reading, or load as other templates. No stricter than what training writes: a scale it
 * could not measure is written as JSON writes any number that is not finite, null.
 */
function shapeValid(header: unknown): header is Header {
  if (typeof header !== 'object' || header === null) return false;
  const { phrases, dim, steps, templates, scales, templateScales, phoneMean } = header as Record<
    string,
    unknown
  >;
  return (
    Array.isArray(phrases) &&
    phrases.length > 0 &&
    phrases.every((text) => typeof text === 'string') &&
    countUpTo(MAX_DIM)(dim) &&
    Array.isArray(steps) &&
    steps.length === dim &&
    steps.every((step) => finite(step) && step > 0) &&
    Array.isArray(templates) &&
    templates.length > 0 &&
    templates.every(
      (t) =>
        Array.isArray(t) &&
        t.length === 2 &&
        Number.isInteger(t[0]) &&
        (t[0] as number) >= 0 &&
        (t[0] as number) < phrases.length &&
        countUpTo(Number.MAX_SAFE_INTEGER)(t[1]),
    ) &&
    numbersOrNull(scales) &&
    (templateScales === undefined || numbersOrNull(templateScales)) &&
    (phoneMean === undefined || numbersOrNull(phoneMean))
  );
}

/** A list of numbers as JSON holds them (null for one that was not finite). */
const numbersOrNull = (x: unknown): boolean =>
  Array.isArray(x) && x.every((v) => v === null || typeof v === 'number');

/** Most dimensions a matching frame may have: cepstra, their deltas and a phone view. */
const MAX_DIM = 1024;

/** A loud room's allowance as format 22 writes it: finite, and reached over a rising span. */
function loudRoomValid(x: unknown): boolean {
  if (typeof x !== 'object' || x === null) return false;
  const { riseDb, fromDb, fullDb, weight } = x as Record<string, unknown>;
  return finite(riseDb) && finite(fromDb) && finite(fullDb) && finite(weight) && fullDb > fromDb;
}

/** A voice print as format 24 writes it: whole centroids over bands the analysis has. */
function voiceValid(x: unknown): x is NonNullable<Header['voice']> {
  if (typeof x !== 'object' || x === null) return false;
  const { bands, codebook, scale } = x as Record<string, unknown>;
  return (
    countUpTo(defaultFrontEnd().melBands)(bands) &&
    finite(scale) &&
    scale > 0 &&
    Array.isArray(codebook) &&
    codebook.length > 0 &&
    codebook.length % VOICE_CEPSTRA === 0 &&
    codebook.every(finite)
  );
}

const unloadable = (why: string): SpeechError =>
  new SpeechError('bad_model', `This voice profile cannot be loaded: ${why}.`);

/**
 * Checks that a file is a profile this build reads, whole and as it was written (its seal
 * holds, its header has the shape of one, its templates fill it to the end), at a small part
 * of the cost of loading it: for a server that sends the file on rather than recognising with
 * it. Throws as {@link deserializeProfile} does; returns the format version, the header and
 * where the templates begin.
 */
export function checkProfileFile(bytes: Uint8Array): { version: number; header: Header; start: number } {
  if (bytes.length < 10 || String.fromCharCode(...bytes.subarray(0, 4)) !== MAGIC)
    throw unloadable('not a profile file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(4, true);
  if (!READABLE_VERSIONS.has(version)) throw unloadable(`format version ${version} needs retraining`);
  if (!sealHolds(bytes)) throw unloadable('the file is damaged');
  // A sealed file cut short has lost its seal: its templates fall short of the header's count.
  const end = sealed(bytes) ? bytes.length - SEAL_BYTES : bytes.length;
  const start = 10 + view.getUint32(6, true);
  if (start > end) throw unloadable('the file is cut short');
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(10, start)));
  } catch {
    throw unloadable('the header is damaged');
  }
  if (!shapeValid(header)) throw unloadable('the header is damaged');
  const body = header.templates.reduce((sum, [, frames]) => sum + frames * header.dim, 0);
  if (start + body > end) throw unloadable('the file is cut short');
  // Bytes beyond the templates that are no seal: a file damaged at its end or in its header.
  if (start + body !== end) throw unloadable('the file is damaged');
  return { version, header, start };
}

/** Load a profile written by {@link serializeProfile}; refuses other files and versions. */
export function deserializeProfile(bytes: Uint8Array): Profile {
  const { version, header, start } = checkProfileFile(bytes);
  const { dim, steps, unknownPhrase, whitening, voice } = header;
  if (!settingsValid(header.settings, version)) throw unloadable('the header is damaged');
  if (voice !== undefined && !(version >= 24 && voiceValid(voice))) throw unloadable('the header is damaged');
  if (
    unknownPhrase !== undefined &&
    !(Number.isInteger(unknownPhrase) && unknownPhrase < header.phrases.length)
  )
    throw unloadable('the header is damaged');
  if (
    whitening !== undefined &&
    !(
      Array.isArray(whitening) &&
      whitening.length === cepstralDims(header.settings) ** 2 &&
      cepstralDims(header.settings) <= dim &&
      whitening.every((x) => typeof x === 'number' && Number.isFinite(x))
    )
  )
    throw unloadable('the header is damaged');
  // A fourth weight (the misfit) came with format 8, the typical misfit beside it and the
  // distance beyond repetition with format 10, the loud room's allowance with format 22, the
  // steeper hinge further out with format 26, and its leaving phrases to the misfit with
  // format 28; a file that claims one earlier is damaged.
  const calibration = header.calibration as Partial<Calibration> | undefined;
  const weights: unknown = calibration?.weights;
  const typicalMisfit: unknown = calibration?.typicalMisfit;
  const beyond: unknown = calibration?.beyondRepetition;
  const farBeyond: unknown = calibration?.farBeyondRepetition;
  const loudRoom: unknown = calibration?.loudRoom;
  if (!(
    Array.isArray(weights) &&
    (weights.length === 3 || (weights.length === 4 && version >= 8)) &&
    weights.every(finite) &&
    finite(calibration?.threshold) &&
    (typicalMisfit === undefined || (weights.length === 4 && version >= 10 && finite(typicalMisfit))) &&
    (beyond === undefined || (version >= 10 && hingeValid(beyond, version))) &&
    (farBeyond === undefined ||
      (version >= 26 && beyond !== undefined && hingeValid(farBeyond, version, true))) &&
    (loudRoom === undefined || (version >= 22 && loudRoomValid(loudRoom)))
  ))
    throw unloadable('the header is damaged');
  // The templates fill the file to its end: checked above.
  let p = start;
  const stored: Quantised[] = header.templates.map(([, frames]) => {
    const n = frames * dim;
    // A copy read at the bytes' own offset: a Node Buffer's slice is a view of all of them.
    const data = new Int8Array(bytes.buffer, bytes.byteOffset + p, n).slice();
    p += n;
    return { frames, dim, data, step: steps[0] ?? 1 };
  });
  const phraseOf = (i: number): number => (header.templates[i] as [number, number])[0];
  let step = steps[0] ?? 1;
  let templates: Template[];
  if (steps.every((s) => s === step)) {
    // The profile's own values, used as they are: the very templates that were trained.
    templates = stored.map((q, i) => templateOf(q, phraseOf(i), header.settings));
  } else {
    // Files of earlier builds have a step per dimension: requantised to one.
    const values = stored.map((q) => ({
      frames: q.frames,
      dim,
      data: Float32Array.from(q.data, (v, k) => v * (steps[k % dim] as number)),
    }));
    step = templateStep(values);
    templates = values.map((v, i) => makeTemplate(v, phraseOf(i), header.settings, step));
  }
  const scales = Float32Array.from(header.scales);
  let templateScales: Float32Array;
  if (version >= 2) {
    if (header.templateScales?.length !== templates.length) throw unloadable('the header is damaged');
    templateScales = Float32Array.from(header.templateScales);
  } else {
    templateScales = Float32Array.from(templates, (t) => scales[t.phrase] ?? 1);
  }
  return {
    version,
    settings: header.settings,
    phrases: header.phrases,
    scales,
    templates,
    step,
    templateScales,
    calibration: header.calibration,
    minSilence: header.minSilence,
    trainedAt: header.trainedAt,
    ...(header.phoneMean === undefined ? {} : { phoneMean: Float32Array.from(header.phoneMean) }),
    ...(unknownPhrase === undefined ? {} : { unknownPhrase }),
    ...(whitening === undefined ? {} : { whitening: Float32Array.from(whitening) }),
    ...(voice === undefined
      ? {}
      : { voice: { bands: voice.bands, codebook: Float32Array.from(voice.codebook), scale: voice.scale } }),
  };
}
