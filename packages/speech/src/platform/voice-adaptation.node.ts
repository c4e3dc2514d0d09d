import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SoundSwallowerModule } from 'soundswallower';
import { GenericRecogniser } from '../generic/generic.js';
import type { GenericHearingTrial } from '../eval/evaluate.js';
import {
  knowsTheVoice,
  SecondOpinion,
  takesInTurn,
  takesToJudge,
  withSilenceAround,
} from '../generic/second-opinion.js';
import {
  ADAPTATION_SECONDS,
  modelFeatures,
  VoiceAdaptation,
  type AdaptationOptions,
} from '../generic/voice-adaptation.js';
import type { PlacedMeans } from '../decode/handlers.js';
import { adaptedMeansFile, encodeVoiceMeans } from '../generic/voice-means.js';
import { spokenSpan } from '../model/features-of-take.js';
import { parseGaussianFile, parseMdefPhones } from '../phones/acoustic-model.js';
import { soundSwallowerModelDir } from './soundswallower.node.js';

interface ModelFiles {
  meansFile: Uint8Array;
  means: ReturnType<typeof parseGaussianFile>;
  variances: ReturnType<typeof parseGaussianFile>;
  phones: string[];
}
let files: Promise<ModelFiles> | undefined;
function modelFiles(): Promise<ModelFiles> {
  files ??= (async () => {
    const base = join(soundSwallowerModelDir(), 'en-us');
    const [mdef, meansFile, variances] = await Promise.all(
      ['mdef', 'means', 'variances'].map(async (name) => new Uint8Array(await readFile(join(base, name)))),
    );
    return {
      meansFile: meansFile as Uint8Array,
      means: parseGaussianFile(meansFile as Uint8Array, 'acoustic model means'),
      variances: parseGaussianFile(variances as Uint8Array, 'acoustic model variances'),
      phones: parseMdefPhones(mdef as Uint8Array),
    };
  })();
  return files;
}

type TakeAudio = { text: string; audio: Float32Array };

/**
 * A person's takes aligned by the engine and learnt, up to {@link ADAPTATION_SECONDS} of
 * their words, a take of each phrase before a second of any: `all` of them, and apart, the
 * takes of each group `groupOf` puts them in (undefined: none), to be left out of `all` later.
 */
async function learnVoice(
  module: SoundSwallowerModule,
  takes: readonly TakeAudio[],
  groups = 0,
  groupOf: (take: TakeAudio) => number | undefined = () => undefined,
): Promise<{ all: VoiceAdaptation; groups: VoiceAdaptation[] }> {
  const model = await modelFiles();
  const fresh = (): VoiceAdaptation => new VoiceAdaptation(model.means, model.variances, model.phones);
  const all = fresh();
  const apart = Array.from({ length: groups }, fresh);
  const aligner = await GenericRecogniser.create(module, []);
  let seconds = 0;
  try {
    for (const take of takesInTurn(takes)) {
      if (seconds >= ADAPTATION_SECONDS) break;
      // As the generic path hears an utterance: its words, with silence around, not its room.
      const { start, end } = spokenSpan(take.audio);
      seconds += end - start;
      const aligned = aligner.alignPhones(take.text, withSilenceAround(take.audio, start, end));
      if (aligned === undefined) continue;
      const features = modelFeatures(aligned.logMel, aligned.frames, aligned.spans);
      all.add(features, aligned.spans);
      const group = groupOf(take);
      if (group !== undefined) apart[group]?.add(features, aligned.spans);
    }
  } finally {
    aligner.delete();
  }
  return { all, groups: apart };
}

/**
 * Hand `use` the path of the engine's means file for a person's adapted means (compact, as
 * {@link adaptToVoice} gives them) for an engine to load ({@link GenericRecogniser} `means`:
 * it reads the file when it loads), and remove the file once `use` is done.
 */
export async function withVoiceMeans<T>(voice: Uint8Array, use: (path: string) => Promise<T>): Promise<T> {
  const placed = await placeVoice(voice);
  try {
    return await use(placed.location);
  } finally {
    await placed.release();
  }
}

/** A means file holding `bytes` in a folder of its own, removed on release. */
async function placeMeansFile(bytes: Uint8Array): Promise<PlacedMeans> {
  const folder = await mkdtemp(join(tmpdir(), 'parla-voice-'));
  const location = join(folder, 'means');
  const release = () => rm(folder, { recursive: true, force: true });
  try {
    await writeFile(location, bytes);
  } catch (error) {
    await release();
    throw error;
  }
  return { location, release };
}

/**
 * A person's adapted means (compact) as a file an engine in Node can read (the speech
 * handlers' `placeVoiceMeans`; the model is the installed package's, whatever `_modelBase`).
 */
export function placeVoiceMeans(_modelBase: string, voice: Uint8Array): Promise<PlacedMeans> {
  return placeVoice(voice);
}

async function placeVoice(voice: Uint8Array): Promise<PlacedMeans> {
  return placeMeansFile(await voiceMeansFile(voice));
}

/** Adapted means in the compact form kept beside a profile ({@link encodeVoiceMeans}). */
async function compactVoice(adapted: Float32Array): Promise<Uint8Array> {
  const { means } = await modelFiles();
  return encodeVoiceMeans(means.data, adapted, means.dims[0] as number);
}

/**
 * The engine's means file for a person's adapted means in compact form (as {@link adaptToVoice}
 * gives them); a `bad_model` error when they do not fit this build's model.
 */
export async function voiceMeansFile(voice: Uint8Array): Promise<Uint8Array> {
  return adaptedMeansFile((await modelFiles()).meansFile, voice);
}

/**
 * Hand `use` the generic engine's means adapted to a person's takes, as a file of their own
 * for an engine to read, and remove the file once `use` is done. `use` gets undefined when
 * no take could be aligned.
 */
export async function withMeansAdaptedTo<T>(
  module: SoundSwallowerModule,
  takes: readonly TakeAudio[],
  use: (means: string | undefined) => Promise<T>,
  options?: AdaptationOptions,
): Promise<T> {
  const { all } = await learnVoice(module, takes);
  if (all.frames === 0) return use(undefined);
  return withVoiceMeans(await compactVoice(all.adaptedMeans(options)), use);
}

/**
 * The generic engine's means adapted to all of a person's takes, in the compact form kept
 * beside their profile (`voice`, read with {@link voiceMeansFile}), and how well an engine
 * with them knows the voice, judged so that the adaptation cannot flatter it: the judged
 * takes ({@link takesToJudge}) in `folds` groups, each named by an engine adapted on every
 * take but its group's. Undefined when no take could be aligned.
 */
export async function adaptToVoice(
  module: SoundSwallowerModule,
  phrases: readonly string[],
  recorded: readonly string[],
  takes: readonly TakeAudio[],
  folds = 3,
  options?: AdaptationOptions,
): Promise<{ voice: Uint8Array; knows: number } | undefined> {
  const judged = new Map(takesToJudge(takes).map((take, i) => [take, i % folds]));
  const { all, groups } = await learnVoice(module, takes, folds, (take) => judged.get(take));
  if (all.frames === 0) return undefined;
  let right = 0;
  for (let fold = 0; fold < folds; fold++) {
    const foldTakes = [...judged]
      .filter(([, f]) => f === fold)
      .map(([take]) => ({ ...take, confirmed: false }));
    if (foldTakes.length === 0) continue;
    // Judged as the product hears: through the compact form.
    const foldMeans = await compactVoice(all.adaptedMeans(options, groups[fold]));
    right += await withVoiceMeans(foldMeans, async (path) => {
      const engine = await SecondOpinion.create(module, phrases, recorded, path);
      if (engine === undefined) return 0;
      try {
        return engine.knows(foldTakes) * foldTakes.length;
      } finally {
        engine.delete();
      }
    });
  }
  return {
    voice: await compactVoice(all.adaptedMeans(options)),
    knows: judged.size === 0 ? 0 : right / judged.size,
  };
}

/**
 * {@link adaptToVoice}, and the generic path loaded with the adapted means. Undefined when no
 * take could be aligned or the engine can say none of the phrases.
 */
export async function adaptedAndJudged(
  ...args: Parameters<typeof adaptToVoice>
): Promise<{ engine: SecondOpinion; knows: number } | undefined> {
  const [module, phrases, recorded] = args;
  const adapted = await adaptToVoice(...args);
  if (adapted === undefined) return undefined;
  const engine = await withVoiceMeans(adapted.voice, (path) =>
    SecondOpinion.create(module, phrases, recorded, path),
  );
  return engine === undefined ? undefined : { engine, knows: adapted.knows };
}

/**
 * The generic path as the product gives it to each person, for the evaluation commands
 * (decision 0128): adapted to their voice where it was judged, out of fold, to know it so;
 * the model's own otherwise, judged as the product judges it. `ownMeans`: the model's own for
 * every voice, as before 0128.
 */
export function productGenericTrial(module: SoundSwallowerModule, ownMeans = false): GenericHearingTrial {
  const knows = new WeakMap<SecondOpinion, number>();
  return {
    create: async (phrases, recorded, takes) => {
      if (!ownMeans) {
        const adapted = await adaptedAndJudged(module, phrases, recorded, takes);
        if (adapted !== undefined && knowsTheVoice(adapted.knows)) {
          knows.set(adapted.engine, adapted.knows);
          return adapted.engine;
        }
        adapted?.engine.delete();
      }
      return SecondOpinion.create(module, phrases, recorded);
    },
    knowsOf: (engine) => knows.get(engine),
  };
}
