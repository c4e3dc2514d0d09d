import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ManifestEntry } from '../platform/files.node.js';
import { ENROLLED_PHRASES } from './phrases.js';
import type { RenderedTake, Split } from './synthetic.node.js';

const SPLITS: readonly Split[] = ['enroll', 'tune', 'test', 'tune-later', 'month-2', 'month-4', 'month-6'];

/** The tuning takes in the order they were said, each session a manifest `session`. */
const SESSIONS_IN_ORDER: readonly Split[] = ['tune', 'tune-later', 'month-2', 'month-4', 'month-6'];

/** Phrases per user in the small-vocabulary sets: about what a new user starts with. */
const SMALL_VOCABULARY = 6;

/** The enrolled phrases cut into groups of {@link SMALL_VOCABULARY} (the remainder left out). */
const SMALL_VOCABULARIES: readonly Set<string>[] = Array.from(
  { length: Math.floor(ENROLLED_PHRASES.length / SMALL_VOCABULARY) },
  (_, g) => new Set<string>(ENROLLED_PHRASES.slice(g * SMALL_VOCABULARY, (g + 1) * SMALL_VOCABULARY)),
);

/**
 * Write every synthetic set's manifests under `folder` (the takes' audio is already there).
 * Kept apart from the rendering, so that listing the takes another way leaves the
 * renderer's fingerprint, and so every rendered take, as it was.
 */
export async function writeSyntheticManifests(folder: string, takes: readonly RenderedTake[]): Promise<void> {
  const entryOf = (dir: string, j: RenderedTake, speaker = j.spec.id): ManifestEntry => ({
    audio: relative(dir, j.file),
    text: j.text,
    speaker,
  });
  const write = async (
    sub: string,
    entries: (split: Split, dir: string) => ManifestEntry[],
  ): Promise<void> => {
    const dir = join(folder, sub);
    await mkdir(dir, { recursive: true });
    for (const split of SPLITS)
      await writeFile(join(dir, `${split}.json`), `${JSON.stringify(entries(split, dir), null, 2)}\n`);
    // Both tuning days in one manifest, for learning from use (`speech:tune --adapt`).
    const inUse = [...entries('tune', dir), ...entries('tune-later', dir)];
    await writeFile(join(dir, 'tune-in-use.json'), `${JSON.stringify(inUse, null, 2)}\n`);
    // Half a year of use of a speaker whose speech changes, session by session.
    const months = SESSIONS_IN_ORDER.flatMap((split) =>
      entries(split, dir).map((entry) => ({ ...entry, session: split })),
    );
    await writeFile(join(dir, 'tune-months.json'), `${JSON.stringify(months, null, 2)}\n`);
  };
  // A set of takes as manifests: each split's takes of `list`.
  const writeTakes = (sub: string, list: readonly RenderedTake[]): Promise<void> =>
    write(sub, (split, dir) => list.filter((j) => j.split === split).map((j) => entryOf(dir, j)));
  const phrases = takes.filter((j) => !j.word);
  await writeTakes('all', phrases);
  for (const severity of ['mild', 'moderate', 'severe'] as const) {
    const ofSeverity = phrases.filter((j) => j.spec.severity === severity);
    await writeTakes(severity, ofSeverity);
    // Each speaker as several users of a few phrases each (`speaker/1`, `speaker/2`, ...):
    // a user enrols only their group, and every other phrase the speaker says is unknown to
    // them, so rejection is measured where the rival phrases are few.
    await write(`${severity}-small`, (split, dir) =>
      [...new Set(ofSeverity.map((j) => j.spec))].flatMap((spec) =>
        SMALL_VOCABULARIES.flatMap((group, g) =>
          ofSeverity
            .filter((j) => j.spec === spec && j.split === split && (split !== 'enroll' || group.has(j.text)))
            .map((j) => entryOf(dir, j, `${spec.id}/${g + 1}`)),
        ),
      ),
    );
    // The phrases and single words together, as a user with shortcut words has them.
    await writeTakes(
      `${severity}-words`,
      takes.filter((j) => j.spec.severity === severity),
    );
  }
  console.log(`Synthetic speakers written under ${folder}`);
}
