import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { SPEECH_MODEL_PATH } from '@parla/contract';
import { soundSwallowerModelDir } from '@parla/speech/node';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the generic recogniser's en-US acoustic model (9.5 MB, from the installed
 * SoundSwallower package) to the browser's local mode, which hears phrases not recorded
 * yet with it (docs/decisions/0102). Public: it is the package's, nobody's data. The files
 * change only with the package, so browsers may keep them for a week.
 */
export async function registerSpeechModel(app: FastifyInstance) {
  await app.register(fastifyStatic, {
    root: path.join(soundSwallowerModelDir(), 'en-us'),
    prefix: `${SPEECH_MODEL_PATH}en-us/`,
    decorateReply: false,
    wildcard: false,
    index: false,
    setHeaders(res) {
      res.header('Cache-Control', 'public, max-age=604800');
    },
  });
}
