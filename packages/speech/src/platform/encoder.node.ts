import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-web';
import type { SpeechEncoder } from '../encoder/encoder-view.js';
import { ENCODER_MODEL_FILE, encoderOfModel } from '../encoder/onnx-encoder.js';
import type { EncoderProjection } from '../encoder/projection.js';

/** The encoder's model file in node_modules: the server reads it, and serves it to browsers. */
export function speechEncoderModelFile(): string {
  const packageDist = dirname(fileURLToPath(import.meta.resolve('@usefulsensors/moonshine-js')));
  return join(packageDist, ...ENCODER_MODEL_FILE);
}

/** Load the encoder from node_modules, run as WebAssembly on one thread, as a browser's
 * worker runs it (`encoderOfModel`). */
export async function loadSpeechEncoder(projection?: EncoderProjection | null): Promise<SpeechEncoder> {
  return encoderOfModel(ort, new Uint8Array(await readFile(speechEncoderModelFile())), projection);
}
