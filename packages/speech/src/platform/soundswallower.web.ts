import type { SoundSwallowerModule } from 'soundswallower';

/**
 * Load SoundSwallower in a browser or Worker; `modelBase` is the URL the model folder is
 * served from. The package is imported only here, when asked for: at load it touches
 * `document`, which a worker lacks, so the rest of this entry stays usable in workers.
 */
export async function loadSoundSwallower(modelBase: string): Promise<SoundSwallowerModule> {
  const { default: createModule } = await import('soundswallower');
  const base = modelBase.endsWith('/') ? modelBase : `${modelBase}/`;
  return createModule({ modelBase: base } as Partial<SoundSwallowerModule>);
}
