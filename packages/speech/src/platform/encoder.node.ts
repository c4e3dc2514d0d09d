import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-web';
import { SAMPLE_RATE } from '../units.js';
import { ENCODER_PADDING_SECONDS, encoderView, type SpeechEncoder } from '../encoder/encoder-view.js';
import { builtProjection, project, type EncoderProjection } from '../encoder/projection.js';

/** Moonshine Tiny's encoder (English, MIT), as its npm package carries it: 16 kHz samples
 * in, 288 values about 42 times a second out (docs/decisions/0144). */
const ENCODER_FILE = ['model', 'tiny', 'quantized', 'encoder_model.onnx'];

/** Load the encoder from node_modules, run as WebAssembly on one thread, as a browser's
 * worker would run it. Its views are projected as the product keeps them, unless
 * `projection` is null (to make the projection). */
export async function loadSpeechEncoder(
  projection: EncoderProjection | null = builtProjection(),
): Promise<SpeechEncoder> {
  const packageDist = dirname(fileURLToPath(import.meta.resolve('@usefulsensors/moonshine-js')));
  const model = await readFile(join(packageDist, ...ENCODER_FILE));
  ort.env.wasm.numThreads = 1;
  const session = await ort.InferenceSession.create(new Uint8Array(model));
  const padding = Math.round(ENCODER_PADDING_SECONDS * SAMPLE_RATE);
  return {
    async view(audio) {
      const padded = new Float32Array(audio.length + 2 * padding);
      padded.set(audio, padding);
      const input = new ort.Tensor('float32', padded, [1, padded.length]);
      const { last_hidden_state: out } = await session.run({ input_values: input });
      if (out === undefined) throw new Error('the speech encoder gave no frames');
      const [, frames = 0, dim = 0] = out.dims;
      const view = encoderView(out.data as Float32Array, frames, dim);
      return projection === null ? view : project(view, projection);
    },
  };
}
