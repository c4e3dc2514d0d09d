import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { toMono16k } from '../audio/audio.js';
import { decodeWav, encodeWavPcm16 } from '../audio/wav.js';
import { narrowBand } from '../eval/channels.js';
import type { ManifestEntry } from '../platform/files.node.js';
import { SAMPLE_RATE } from '../units.js';

/** The splits a person would say through the headset: after enrolment, never enrolment itself. */
const SPLITS = ['tune', 'test'] as const;

/**
 * The synthetic speakers as heard through an 8 kHz channel (a telephone, a Bluetooth
 * headset in its narrow-band mode) after enrolling on a full-band microphone: each
 * severity's tuning and test takes resampled to 8 kHz and back, as `tune-narrow.json` and
 * `test-narrow.json` beside its manifests (docs/decisions/0066). A copy is made again
 * only when its take was rendered after it.
 */
export async function writeNarrowBand(folder: string): Promise<void> {
  const audioDir = join(folder, 'audio-narrow');
  await mkdir(audioDir, { recursive: true });
  let made = 0;
  for (const severity of ['mild', 'moderate', 'severe']) {
    const dir = join(folder, severity);
    for (const split of SPLITS) {
      const entries = JSON.parse(await readFile(join(dir, `${split}.json`), 'utf8')) as ManifestEntry[];
      const narrow: ManifestEntry[] = [];
      for (const entry of entries) {
        const source = resolve(dir, entry.audio);
        const copy = join(audioDir, basename(source));
        const copyTime = await stat(copy).then(
          (s) => s.mtimeMs,
          () => -Infinity,
        );
        if (copyTime < (await stat(source)).mtimeMs) {
          const audio = toMono16k(decodeWav(await readFile(source)));
          await writeFile(copy, encodeWavPcm16(narrowBand(audio), SAMPLE_RATE));
          made++;
        }
        narrow.push({ ...entry, audio: relative(dir, copy) });
      }
      await writeFile(join(dir, `${split}-narrow.json`), `${JSON.stringify(narrow, null, 2)}\n`);
    }
  }
  console.log(
    `  ${made} takes resampled through an 8 kHz channel under ${relative(dirname(folder), audioDir)}`,
  );
}
