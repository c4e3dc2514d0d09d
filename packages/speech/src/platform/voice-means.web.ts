import type { PlacedMeans } from '../decode/handlers.js';
import { SpeechError } from '../errors.js';
import { adaptedMeansFile } from '../generic/voice-means.js';

/**
 * A person's adapted means (compact) as a means file the engine in a browser fetches as it
 * loads: made from the model's own at `modelBase` (as `loadSoundSwallower` is given it), held
 * in a blob URL until released.
 */
export async function placeVoiceMeans(modelBase: string, voice: Uint8Array): Promise<PlacedMeans> {
  const base = modelBase.endsWith('/') ? modelBase : `${modelBase}/`;
  const response = await fetch(`${base}en-us/means`);
  if (!response.ok)
    throw new SpeechError(
      'bad_model',
      `The generic recogniser's means could not be fetched (${response.status}).`,
    );
  const file = adaptedMeansFile(new Uint8Array(await response.arrayBuffer()), voice);
  // A fresh copy of the model's file: its buffer is an ArrayBuffer of its own.
  const location = URL.createObjectURL(
    new Blob([file as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }),
  );
  return {
    location,
    release: () => {
      URL.revokeObjectURL(location);
      return Promise.resolve();
    },
  };
}
