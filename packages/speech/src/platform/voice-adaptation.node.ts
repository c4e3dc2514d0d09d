import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SoundSwallowerModule } from 'soundswallower';
import { GenericRecogniser } from '../generic/generic.js';
import { meansFileWith, modelFeatures, VoiceAdaptation } from '../generic/voice-adaptation.js';
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

/**
 * Hand `use` the generic engine's means adapted to a person's takes, as a file of their own
 * for an engine to read ({@link GenericRecogniser} `means`), and remove the file once `use`
 * is done (an engine reads it when it loads). `use` gets undefined when no take could be
 * aligned.
 */
export async function withMeansAdaptedTo<T>(
  module: SoundSwallowerModule,
  takes: readonly { text: string; audio: Float32Array }[],
  use: (means: string | undefined) => Promise<T>,
  prior?: number,
): Promise<T> {
  const model = await modelFiles();
  const aligner = await GenericRecogniser.create(module, []);
  const adaptation = new VoiceAdaptation(model.means, model.variances, model.phones);
  try {
    for (const take of takes) {
      const aligned = aligner.alignPhones(take.text, take.audio);
      if (aligned !== undefined) adaptation.add(modelFeatures(aligned.logMel, aligned.frames), aligned.spans);
    }
  } finally {
    aligner.delete();
  }
  if (adaptation.frames === 0) return use(undefined);
  const folder = await mkdtemp(join(tmpdir(), 'parla-voice-'));
  try {
    const path = join(folder, 'means');
    await writeFile(path, meansFileWith(model.meansFile, adaptation.adaptedMeans(prior)));
    return await use(path);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
