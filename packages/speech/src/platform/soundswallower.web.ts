import createModule, { type SoundSwallowerModule } from 'soundswallower';

/** Load SoundSwallower in a browser or Worker; `modelBase` is the URL the model folder is served from. */
export function loadSoundSwallower(modelBase: string): Promise<SoundSwallowerModule> {
  const base = modelBase.endsWith('/') ? modelBase : `${modelBase}/`;
  return createModule({ modelBase: base } as Partial<SoundSwallowerModule>);
}
