import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { toMono16k } from '../audio/audio.js';
import { decodeWav, encodeWavPcm16 } from '../audio/wav.js';
import type { ManifestEntry } from '../platform/files.node.js';
import { SAMPLE_RATE } from '../units.js';

/** The splits a person says after enrolling: what other channels and rooms are measured on. */
const SPLITS = ['tune', 'test'] as const;

/**
 * Each synthetic severity's tuning and test takes as heard some other way: `hear` makes a
 * copy of a take under `audioDir`, listed as `<split>-<suffix>.json` beside the severity's
 * manifests. A copy is made again when its take was rendered after it, or every copy when
 * `remakeAll`. Returns how many copies were made.
 */
export async function writeHeardCopies(
  folder: string,
  audioDir: string,
  suffix: string,
  hear: (audio: Float32Array, takeName: string) => Promise<Float32Array>,
  remakeAll = false,
): Promise<number> {
  await mkdir(audioDir, { recursive: true });
  let made = 0;
  for (const severity of ['mild', 'moderate', 'severe']) {
    const dir = join(folder, severity);
    for (const split of SPLITS) {
      const entries = JSON.parse(await readFile(join(dir, `${split}.json`), 'utf8')) as ManifestEntry[];
      const heard: ManifestEntry[] = [];
      for (const entry of entries) {
        const source = resolve(dir, entry.audio);
        const copy = join(audioDir, basename(source));
        const copyTime = await stat(copy).then(
          (s) => s.mtimeMs,
          () => -Infinity,
        );
        if (remakeAll || copyTime < (await stat(source)).mtimeMs) {
          const audio = toMono16k(decodeWav(await readFile(source)));
          await writeFile(copy, encodeWavPcm16(await hear(audio, basename(source)), SAMPLE_RATE));
          made++;
        }
        heard.push({ ...entry, audio: relative(dir, copy) });
      }
      await writeFile(join(dir, `${split}-${suffix}.json`), `${JSON.stringify(heard, null, 2)}\n`);
    }
  }
  return made;
}
