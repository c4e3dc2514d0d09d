import { dirname, join, relative } from 'node:path';
import { narrowBand } from '../eval/channels.js';
import { writeHeardCopies } from './channel-copies.node.js';

/**
 * The synthetic speakers as heard through an 8 kHz channel (a telephone, a Bluetooth
 * headset in its narrow-band mode) after enrolling on a full-band microphone: each
 * severity's tuning and test takes resampled to 8 kHz and back, as `tune-narrow.json` and
 * `test-narrow.json` beside its manifests (docs/decisions/0066). A copy is made again
 * only when its take was rendered after it.
 */
export async function writeNarrowBand(folder: string): Promise<void> {
  const audioDir = join(folder, 'audio-narrow');
  const made = await writeHeardCopies(folder, audioDir, 'narrow', (audio) =>
    Promise.resolve(narrowBand(audio)),
  );
  console.log(
    `  ${made} takes resampled through an 8 kHz channel under ${relative(dirname(folder), audioDir)}`,
  );
}
