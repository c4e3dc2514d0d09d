import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { ManifestEntry } from '../platform/files.node.js';

const packageRoot = resolve(fileURLToPath(import.meta.url), '../../..');
const repoRoot = resolve(packageRoot, '../..');

const { values } = parseArgs({
  options: {
    fsdd: { type: 'string', default: resolve(repoRoot, '../shared/data/fsdd') },
    out: { type: 'string', default: join(packageRoot, '.data') },
    synthetic: { type: 'boolean', default: true },
    'synthetic-only': { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
  },
  allowNegative: true,
});
const out = resolve(values.out);

const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

async function writeManifest(folder: string, name: string, entries: ManifestEntry[]): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, name), `${JSON.stringify(entries, null, 2)}\n`);
}

/** Real-speech manifests: enrol takes 0..k-1, test 10-29; tuning sets use takes 0-9 only. */
async function fsdd(): Promise<void> {
  const recordings = join(values.fsdd, 'recordings');
  const files = (await readdir(recordings)).filter((f) => f.endsWith('.wav'));
  const parsed = files
    .map((f) => /^(\d)_([a-z]+)_(\d+)\.wav$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ file: m[0], digit: Number(m[1]), speaker: m[2] as string, take: Number(m[3]) }));
  const entry = (folder: string, p: (typeof parsed)[number]): ManifestEntry => ({
    audio: relative(folder, join(recordings, p.file)),
    text: DIGITS[p.digit] as string,
    speaker: p.speaker,
  });
  const build = async (name: string, enrolTakes: number[], testTakes: number[], enrolDigits: number[]) => {
    const folder = join(out, name);
    const pick = (takes: number[], digits: number[]) =>
      parsed
        .filter((p) => takes.includes(p.take) && digits.includes(p.digit))
        .sort((a, b) => a.speaker.localeCompare(b.speaker) || a.digit - b.digit || a.take - b.take)
        .map((p) => entry(folder, p));
    await writeManifest(folder, 'enroll.json', pick(enrolTakes, enrolDigits));
    await writeManifest(
      folder,
      'test.json',
      pick(
        testTakes,
        DIGITS.map((_, i) => i),
      ),
    );
  };
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  const all = range(0, 9);
  for (const k of [1, 3, 5]) {
    await build(`fsdd/k${k}`, range(0, k - 1), range(10, 29), all);
    await build(`fsdd-tune/k${k}`, range(0, k - 1), range(5, 9), all);
  }
  // Out-of-vocabulary protocol: eight digits enrolled, "eight" and "nine" must be rejected.
  for (const k of [1, 3, 5]) {
    await build(`fsdd-oov/k${k}`, range(0, k - 1), range(10, 29), range(0, 7));
    await build(`fsdd-oov-tune/k${k}`, range(0, k - 1), range(5, 9), range(0, 7));
  }
  // The same with the takes reversed (7-9 enrolled, 0-2 tested): a gap between enrolment
  // and use that the tuning takes right after enrolment do not have, as the test takes do
  // (docs/decisions/0061). Still takes 0-9 only.
  await build('fsdd-oov-rev-tune/k3', range(7, 9), range(0, 2), range(0, 7));
  // Learning from use (`speech:tune --adapt`): the other seven of the ten non-test takes
  // used after enrolling three, with every digit enrolled and with eight of them.
  await build('fsdd-adapt-tune/k3', range(0, 2), range(3, 9), all);
  await build('fsdd-oov-adapt-tune/k3', range(0, 2), range(3, 9), range(0, 7));
  console.log(`FSDD manifests written under ${join(out, 'fsdd*')}`);
}

if (!values['synthetic-only']) await fsdd();
if (values.synthetic || values['synthetic-only']) {
  const { generateSynthetic } = await import('./synthetic.node.js');
  const { writeSyntheticManifests } = await import('./synthetic-manifests.node.js');
  const takes = await generateSynthetic(join(out, 'synthetic'), 2, values.fresh);
  await writeSyntheticManifests(join(out, 'synthetic'), takes);
  const { writeNarrowBand } = await import('./narrow-band.node.js');
  await writeNarrowBand(join(out, 'synthetic'));
  const { writeNoisyRoom } = await import('./noisy-room.node.js');
  await writeNoisyRoom(join(out, 'synthetic'));
}
