import type { SoundSwallowerModule } from 'soundswallower';

/**
 * Load SoundSwallower in a browser or Worker; `modelBase` is the URL the model folder is
 * served from. The package is imported only here, when asked for. In a worker, its
 * blob-polyfill import must resolve to the native Blob (the polyfill touches `document`
 * when it loads): the web app's build does so (apps/web/src/lib/native-blob.ts).
 */
export async function loadSoundSwallower(modelBase: string): Promise<SoundSwallowerModule> {
  const { default: createModule } = await import('soundswallower');
  const base = modelBase.endsWith('/') ? modelBase : `${modelBase}/`;
  return createModule({ modelBase: base } as Partial<SoundSwallowerModule>);
}
