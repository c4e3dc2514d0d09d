import type * as Ort from 'onnxruntime-web';
import { SAMPLE_RATE } from '../units.js';
import { ENCODER_PADDING_SECONDS, encoderView, type SpeechEncoder } from './encoder-view.js';
import { builtProjection, project, type EncoderProjection } from './projection.js';

/** Moonshine Tiny's encoder (English, MIT), as its npm package carries it: 16 kHz samples
 * in, 288 values about 42 times a second out (docs/decisions/0144). Its path in the package. */
export const ENCODER_MODEL_FILE = ['model', 'tiny', 'quantized', 'encoder_model.onnx'] as const;

/**
 * The encoder over its model's bytes, run by `ort` (onnxruntime-web, in Node or a browser's
 * worker alike) as WebAssembly on one thread. Its views are projected as the product keeps
 * them, unless `projection` is null (to make the projection).
 */
export async function encoderOfModel(
  ort: typeof Ort,
  model: Uint8Array,
  projection: EncoderProjection | null = builtProjection(),
): Promise<SpeechEncoder> {
  ort.env.wasm.numThreads = 1;
  const session = await ort.InferenceSession.create(model);
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

/**
 * The encoder `load`ed on the first call and kept; a load that fails is forgotten, so that
 * the next call tries again (a model that could not be fetched or compiled this time).
 */
export function encoderLoadedOnce(load: () => Promise<SpeechEncoder>): () => Promise<SpeechEncoder> {
  let loading: Promise<SpeechEncoder> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
