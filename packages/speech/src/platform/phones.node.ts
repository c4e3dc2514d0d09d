import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseGaussianFile, parseMdefPhones, PhoneModel } from '../phones/acoustic-model.js';

/** Load the phone codebooks of SoundSwallower's bundled en-US model from node_modules. */
export async function loadPhoneModel(): Promise<PhoneModel> {
  const base = join(dirname(fileURLToPath(import.meta.resolve('soundswallower'))), 'model', 'en-us');
  const [mdef, means, variances] = await Promise.all(
    ['mdef', 'means', 'variances'].map(async (name) => new Uint8Array(await readFile(join(base, name)))),
  );
  return new PhoneModel(
    parseMdefPhones(mdef as Uint8Array),
    parseGaussianFile(means as Uint8Array, 'acoustic model means'),
    parseGaussianFile(variances as Uint8Array, 'acoustic model variances'),
  );
}
