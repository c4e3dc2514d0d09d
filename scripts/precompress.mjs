// After the build: brotli and gzip copies beside the files browsers download, which the server
// sends to browsers that accept them instead of the files themselves. The web app's code
// shrinks to about a third, the generic recogniser's acoustic model to about half.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { root } from './lib.mjs';

const WEB_DIST = path.join(root, 'apps/web/dist');
/** What a browser fetches of the web app; source maps only open in developer tools. */
const WEB_TYPES = /\.(js|css|html|json|svg|wasm|webmanifest|txt)$/;
/** Files under a kilobyte are sent as they are: compressing them saves next to nothing. */
const SMALLEST = 1024;
/** Files over 4 MB are compressed a little less hard. */
const LARGE = 4 * 1024 * 1024;

/**
 * Writes FILE.br and FILE.gz beside `file` when they save at least a tenth of it; `quality`
 * is brotli's (11, its best, takes about 2 s a megabyte). Returns its size as built and as a
 * browser accepting brotli is sent it.
 */
function compressBeside(file, quality) {
  const bytes = readFileSync(file);
  if (bytes.length < SMALLEST) return { raw: bytes.length, br: bytes.length };
  const br = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  if (br.length > bytes.length * 0.9) return { raw: bytes.length, br: bytes.length };
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  return { raw: bytes.length, br: br.length };
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

const kb = (bytes) => `${Math.round(bytes / 1024).toLocaleString('en')} KB`;

function precompressWebApp() {
  let raw = 0;
  let br = 0;
  for (const file of filesUnder(WEB_DIST).filter((f) => WEB_TYPES.test(f))) {
    // The speech encoder's runtime (14 MB of WebAssembly) at 9: 11 would add about 20 s to
    // every build for a tenth less.
    const sizes = compressBeside(file, statSync(file).size > LARGE ? 9 : 11);
    raw += sizes.raw;
    br += sizes.br;
  }
  console.log(`Web app: ${kb(raw)}, sent as ${kb(br)} (brotli).`);
}

/**
 * The acoustic model lives in the SoundSwallower package; its compressed copies cannot go
 * there, so the model is copied where they can (see apps/server/src/plugins/speech-model.ts,
 * which serves the copy while it matches the package).
 */
async function precompressSpeechModel() {
  const { soundSwallowerModelDir } = await import('@parla/speech/node');
  const { speechModelCopyDir, speechModelSource } =
    await import('../apps/server/dist/plugins/speech-model.js');
  const from = path.join(soundSwallowerModelDir(), 'en-us');
  const to = speechModelCopyDir();
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  let raw = 0;
  let br = 0;
  for (const name of readdirSync(from)) {
    if (!statSync(path.join(from, name)).isFile()) continue;
    copyFileSync(path.join(from, name), path.join(to, name));
    // 9 rather than 11: the model is 10 MB, and 11 would add about 15 s to every build.
    const sizes = compressBeside(path.join(to, name), 9);
    raw += sizes.raw;
    br += sizes.br;
  }
  // Written last: a copy cut short by a failed build does not match its source.
  writeFileSync(path.join(to, '.source.json'), JSON.stringify(speechModelSource(from)));
  console.log(`Speech model: ${kb(raw)}, sent as ${kb(br)} (brotli).`);
}

/**
 * The speech encoder's model file, copied out of its package as the acoustic model is (see
 * registerSpeechEncoder). Brotli's quality 5: 9 takes ten times as long for the same 30 %.
 */
async function precompressSpeechEncoder() {
  const { speechEncoderModelFile } = await import('@parla/speech/node');
  const { SPEECH_ENCODER_FILE } = await import('@parla/contract');
  const { speechEncoderCopyDir, speechModelSource } =
    await import('../apps/server/dist/plugins/speech-model.js');
  const from = path.dirname(speechEncoderModelFile());
  const to = speechEncoderCopyDir();
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  copyFileSync(path.join(from, SPEECH_ENCODER_FILE), path.join(to, SPEECH_ENCODER_FILE));
  const sizes = compressBeside(path.join(to, SPEECH_ENCODER_FILE), 5);
  writeFileSync(
    path.join(to, '.source.json'),
    JSON.stringify(speechModelSource(from, [SPEECH_ENCODER_FILE])),
  );
  console.log(`Speech encoder: ${kb(sizes.raw)}, sent as ${kb(sizes.br)} (brotli).`);
}

precompressWebApp();
await precompressSpeechModel();
await precompressSpeechEncoder();
