import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import createModule, { type SoundSwallowerModule } from 'soundswallower';
import { Lexicon, teachFromLexicon } from '../generic/lexicon.js';

/** The folder of SoundSwallower's bundled models in node_modules (one folder per language). */
export function soundSwallowerModelDir(): string {
  return join(dirname(fileURLToPath(import.meta.resolve('soundswallower'))), 'model');
}

/**
 * Load SoundSwallower with its bundled en-US model from node_modules. Its engines are taught
 * their words from the model's dictionary, read once by this thread (see {@link Lexicon});
 * with `wholeDictionary`, each engine reads the whole dictionary itself, as a browser's
 * worker does when it is sent no pronunciations.
 */
export async function loadSoundSwallower({ wholeDictionary = false } = {}): Promise<SoundSwallowerModule> {
  const [module, lexicon] = await Promise.all([
    createModule({ modelBase: `${soundSwallowerModelDir()}/` } as Partial<SoundSwallowerModule>),
    wholeDictionary ? undefined : soundSwallowerLexicon(),
  ]);
  if (lexicon !== undefined) teachFromLexicon(module, lexicon);
  return module;
}

let lexicon: Promise<Lexicon> | undefined;
/** The bundled en-US model's dictionary, read once by this thread. */
export function soundSwallowerLexicon(): Promise<Lexicon> {
  lexicon ??= readFile(join(soundSwallowerModelDir(), 'en-us', 'dict.txt'), 'utf8').then(
    (text) => new Lexicon(text),
  );
  return lexicon;
}
