import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import createModule, { type SoundSwallowerModule } from 'soundswallower';

/** The folder of SoundSwallower's bundled models in node_modules (one folder per language). */
export function soundSwallowerModelDir(): string {
  return join(dirname(fileURLToPath(import.meta.resolve('soundswallower'))), 'model');
}

/** Load SoundSwallower with its bundled en-US model from node_modules. */
export function loadSoundSwallower(): Promise<SoundSwallowerModule> {
  return createModule({ modelBase: `${soundSwallowerModelDir()}/` } as Partial<SoundSwallowerModule>);
}
