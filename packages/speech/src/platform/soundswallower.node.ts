import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import createModule, { type SoundSwallowerModule } from 'soundswallower';

/** Load SoundSwallower with its bundled en-US model from node_modules. */
export function loadSoundSwallower(): Promise<SoundSwallowerModule> {
  const base = join(dirname(fileURLToPath(import.meta.resolve('soundswallower'))), 'model') + '/';
  return createModule({ modelBase: base } as Partial<SoundSwallowerModule>);
}
