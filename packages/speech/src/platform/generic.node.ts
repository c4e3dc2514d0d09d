import { GenericRecogniser, GenericStream } from '../generic/generic.js';
import { feedChunks, now, type RecogniserFactory } from '../eval/evaluate.js';
import { loadSoundSwallower } from './soundswallower.node.js';

/** The generic path for the evaluation: one engine per speaker, built from the enrolled phrase texts. */
export async function genericFactory(): Promise<RecogniserFactory> {
  const module = await loadSoundSwallower();
  return async (enrol) => {
    const t0 = now();
    const recogniser = await GenericRecogniser.create(module, [...new Set(enrol.map((e) => e.text))]);
    const trainMs = now() - t0;
    return {
      trainMs,
      recogniser: {
        run: (audio) => {
          const stream = new GenericStream(recogniser);
          const { results, ms, finalMs } = feedChunks(
            (c) => stream.push(c),
            () => stream.end(),
            audio,
          );
          const best = results.reduce<(typeof results)[number] | undefined>(
            (b, r) => (b === undefined || (r.text !== null && r.confidence > b.confidence) ? r : b),
            undefined,
          );
          return Promise.resolve({
            text: best?.text ?? null,
            top: best?.text ?? null,
            // Learning from use belongs to the personal path: nothing to pick from here.
            choices: [],
            confidence: best?.confidence ?? 0,
            ms,
            finalMs,
          });
        },
      },
    };
  };
}
