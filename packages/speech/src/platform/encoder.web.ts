import type { SpeechEncoder } from '../encoder/encoder-view.js';
import { encoderOfModel } from '../encoder/onnx-encoder.js';
import { SpeechError } from '../errors.js';

/**
 * Load the speech encoder in a browser or Worker from `modelUrl`, where its model file is
 * served (docs/decisions/0147). onnxruntime-web is imported only here, when asked for; the
 * web app's build serves its WebAssembly beside it.
 */
export async function loadSpeechEncoderFrom(modelUrl: string): Promise<SpeechEncoder> {
  const response = await fetch(modelUrl);
  if (!response.ok)
    throw new SpeechError('bad_request', `The speech encoder could not be fetched (${response.status}).`);
  const model = new Uint8Array(await response.arrayBuffer());
  const ort = await import('onnxruntime-web/wasm');
  return encoderOfModel(ort, model);
}
