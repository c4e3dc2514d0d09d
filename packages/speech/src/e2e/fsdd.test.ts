// End to end on real recorded speech: train per speaker on FSDD takes 0-2 of the digits
// zero to seven, then stream held-out takes 10-29 through the decoder in 3200-sample
// chunks. "eight" and "nine" were never enrolled and must be rejected.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsddRecordings } from '../cli/fsdd-manifests.node.js';
import { evaluate, personalFactory, summariseWith, type LoadedItem } from '../eval/evaluate.js';
import { loadManifest } from '../platform/files.node.js';
import { DIGITS, FSDD_RECORDINGS, haveFsdd } from '../test/fsdd.node.js';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';

async function manifest(
  dir: string,
  name: string,
  filter: (digit: number, take: number) => boolean,
): Promise<LoadedItem[]> {
  const entries = (await fsddRecordings(FSDD_RECORDINGS))
    .filter(({ digit, take }) => filter(digit, take))
    .map(({ file, digit, speaker }) => ({
      audio: join(FSDD_RECORDINGS, file),
      text: DIGITS[digit] ?? '',
      speaker,
    }));
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(entries));
  return loadManifest(path);
}

describe.skipIf(!haveFsdd)('FSDD end to end', () => {
  it('recognises held-out takes and rejects digits never enrolled', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fsdd-'));
    const enrol = await manifest(dir, 'enroll.json', (d, t) => d <= 7 && t <= 2);
    const test = await manifest(dir, 'test.json', (_d, t) => t >= 10 && t <= 29);
    const { overall, decisions } = await evaluate(enrol, test, personalFactory());
    const { top1 } = summariseWith(decisions, 0);
    // Floors sit a few points on the safe side of what the tuning split (takes 5-9) measures
    // with the same protocol: top-1 97 %, accepted and right 91 %, out-of-vocabulary false
    // accepts 0 % (one cut for every user is held at 5 %). Matching on unwhitened features
    // gave 86 % here, under the accuracy floor. Decoding is deterministic, so these cannot
    // flake.
    expect(top1).toBeGreaterThanOrEqual(0.94);
    expect(overall.accuracy).toBeGreaterThanOrEqual(0.88);
    expect(overall.oov_false_accept).toBeLessThanOrEqual(0.05);
    console.log(
      `FSDD e2e: top-1 ${top1.toFixed(3)}, accuracy ${overall.accuracy}, oov FA ${overall.oov_false_accept}`,
    );
  }, 60_000);
});
