import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { SPEECH_MODEL_PATH } from '@parla/contract';
import { soundSwallowerModelDir } from '@parla/speech/node';
import type { FastifyInstance } from 'fastify';

/**
 * Where the build copies the model with brotli and gzip copies beside its files
 * (scripts/precompress.mjs): the package's own folder cannot hold them. In the server's build
 * output, whether this module runs from there or from the sources (both two folders under the
 * server's own).
 */
export function speechModelCopyDir(): string {
  const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  return path.join(server, 'dist', 'speech-model', 'en-us');
}

/** What a copy was made from: each file's size and time, which a reinstall changes. */
export function speechModelSource(dir: string): Record<string, [number, number]> {
  const files = readdirSync(dir).filter((name) => statSync(path.join(dir, name)).isFile());
  return Object.fromEntries(
    files.sort().map((name) => {
      const { size, mtimeMs } = statSync(path.join(dir, name));
      return [name, [size, Math.round(mtimeMs)]];
    }),
  );
}

/** `copy`, if the build made it from the model in `packageDir` as it is installed now. */
export function currentCopy(packageDir: string, copy: string): string | undefined {
  const stamp = path.join(copy, '.source.json');
  if (!existsSync(stamp)) return undefined;
  const made = readFileSync(stamp, 'utf8');
  return made === JSON.stringify(speechModelSource(packageDir)) ? copy : undefined;
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
