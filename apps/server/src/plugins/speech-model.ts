import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { SPEECH_ENCODER_FILE, SPEECH_ENCODER_PATH, SPEECH_MODEL_PATH } from '@parla/contract';
import { soundSwallowerModelDir, speechEncoderModelFile } from '@parla/speech/node';
import type { FastifyInstance } from 'fastify';

/**
 * Where the build copies the model with brotli and gzip copies beside its files
 * (scripts/precompress.mjs): the package's own folder cannot hold them. In the server's build
 * output, whether this module runs from there or from the sources (both two folders under the
 * server's own).
 */
export function speechModelCopyDir(): string {
  return path.join(serverDist(), 'speech-model', 'en-us');
}

/** Where the build copies the speech encoder's model file with its compressed copies. */
export function speechEncoderCopyDir(): string {
  return path.join(serverDist(), 'speech-encoder');
}

function serverDist(): string {
  return path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'), 'dist');
}

/**
 * What a copy was made from: each file's size and time, which a reinstall changes; of the
 * files in `dir`, or only of those `named`.
 */
export function speechModelSource(dir: string, named?: readonly string[]): Record<string, [number, number]> {
  const files = (named ?? readdirSync(dir)).filter((name) => statSync(path.join(dir, name)).isFile());
  return Object.fromEntries(
    files.sort().map((name) => {
      const { size, mtimeMs } = statSync(path.join(dir, name));
      return [name, [size, Math.round(mtimeMs)]];
    }),
  );
}

/** `copy`, if the build made it from the model in `packageDir` (its files `named`, or all
 * of them) as it is installed now. */
export function currentCopy(packageDir: string, copy: string, named?: readonly string[]): string | undefined {
  const stamp = path.join(copy, '.source.json');
  if (!existsSync(stamp)) return undefined;
  const made = readFileSync(stamp, 'utf8');
  return made === JSON.stringify(speechModelSource(packageDir, named)) ? copy : undefined;
}

/**
 * Serves the generic recogniser's en-US acoustic model (9.5 MB, from the installed
 * SoundSwallower package) to the browser's local mode, which hears phrases not recorded
 * yet with it (docs/decisions/0102). Public: it is the package's, nobody's data. The files
 * change only with the package, so browsers may keep them for a week. Browsers that accept
 * brotli or gzip get the build's compressed copies (about half the bytes); without a copy
 * made from the installed package, the package's files as they are.
 */
export async function registerSpeechModel(app: FastifyInstance) {
  const packageDir = path.join(soundSwallowerModelDir(), 'en-us');
  const copy = currentCopy(packageDir, speechModelCopyDir());
  if (copy === undefined) app.log.warn('the speech model is served uncompressed: run `npm run build`');
  await app.register(fastifyStatic, {
    root: copy ?? packageDir,
    prefix: `${SPEECH_MODEL_PATH}en-us/`,
    decorateReply: false,
    wildcard: false,
    index: false,
    preCompressed: copy !== undefined,
    setHeaders(res) {
      res.header('Cache-Control', 'public, max-age=604800');
    },
  });
}

/**
 * Serves the speech encoder's model (7.9 MB, sent as 5.5 MB with brotli; Moonshine Tiny's
 * encoder, MIT, from its installed package) to the browser's local mode, which hears the
 * finals its profile and the generic path turned away with it too (docs/decisions/0147).
 * That one file only, not the rest of its package's folder. Public and cached as the
 * generic recogniser's model is.
 */
export async function registerSpeechEncoder(app: FastifyInstance) {
  const packageDir = path.dirname(speechEncoderModelFile());
  const copy = currentCopy(packageDir, speechEncoderCopyDir(), [SPEECH_ENCODER_FILE]);
  if (copy === undefined) app.log.warn('the speech encoder is served uncompressed: run `npm run build`');
  await app.register(fastifyStatic, {
    root: copy ?? packageDir,
    prefix: SPEECH_ENCODER_PATH,
    decorateReply: false,
    wildcard: false,
    index: false,
    allowedPath: (pathName) => pathName === `/${SPEECH_ENCODER_FILE}`,
    preCompressed: copy !== undefined,
    setHeaders(res) {
      res.header('Cache-Control', 'public, max-age=604800');
    },
  });
}
