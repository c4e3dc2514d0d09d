import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ManifestEntry } from '../platform/files.node.js';
import { ENROLLED_PHRASES, ENROLLED_WORDS, UNENROLLED_PHRASES } from './phrases.js';
import { writeSyntheticManifests } from './synthetic-manifests.node.js';
import { SPEAKERS, type RenderedTake, type Split } from './synthetic.node.js';

const folder = mkdtempSync(join(tmpdir(), 'synthetic-manifests-'));
const [mild, moderate] = [
  SPEAKERS.find((s) => s.severity === 'mild'),
  SPEAKERS.find((s) => s.severity === 'moderate'),
];
if (mild === undefined || moderate === undefined) throw new Error('the speakers list lost a severity');

// Seven enrolled phrases (a group of six and the first of the next), an unknown phrase and a
// word, one take of each in every split; the audio itself is never read.
const known = ENROLLED_PHRASES.slice(0, 7);
const unknown = UNENROLLED_PHRASES[0] as string;
const word = ENROLLED_WORDS[0];
const splits: Split[] = ['enroll', 'tune', 'test', 'tune-later', 'month-2', 'month-4', 'month-6'];
const takes: RenderedTake[] = [mild, moderate].flatMap((spec) =>
  [...known, unknown, word].flatMap((text) =>
    splits
      .filter((split) => text !== unknown || split !== 'enroll')
      .map((split, take) => ({
        spec,
        text,
        take,
        split,
        word: text === word,
        file: join(folder, 'audio', `${spec.id}_${text}_${take}.wav`),
      })),
  ),
);

const read = (set: string, name: string): ManifestEntry[] =>
  JSON.parse(readFileSync(join(folder, set, name), 'utf8')) as ManifestEntry[];

describe('writeSyntheticManifests', () => {
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('lists each split of a severity, with audio relative to the manifest', async () => {
    await writeSyntheticManifests(folder, takes);
    const enrol = read('moderate', 'enroll.json');
    expect(enrol.map((e) => e.text)).toEqual(known);
    expect(new Set(enrol.map((e) => e.speaker))).toEqual(new Set([moderate.id]));
    expect(enrol[0]?.audio).toBe(`../audio/${moderate.id}_${known[0]}_0.wav`);
    expect(read('moderate', 'test.json').map((e) => e.text)).toEqual([...known, unknown]);
    // The phrase sets leave the words out; the words sets have both.
    expect(read('all', 'enroll.json')).toHaveLength(2 * known.length);
    expect(read('mild-words', 'enroll.json').map((e) => e.text)).toEqual([...known, word]);
  });

  it('puts both tuning days in one manifest for learning from use, the enrolment day first', () => {
    for (const set of ['severe', 'mild', 'moderate-small', 'mild-words'])
      expect(read(set, 'tune-in-use.json')).toEqual([
        ...read(set, 'tune.json'),
        ...read(set, 'tune-later.json'),
      ]);
    expect(read('mild', 'tune-in-use.json')).toHaveLength(2 * (known.length + 1));
  });

  it('lists half a year of tuning takes in the order said, each marked with its session', () => {
    const months = read('moderate', 'tune-months.json');
    const sessions = ['tune', 'tune-later', 'month-2', 'month-4', 'month-6'];
    expect(months.map(({ session: _session, ...entry }) => entry)).toEqual(
      sessions.flatMap((split) => read('moderate', `${split}.json`)),
    );
    expect([...new Set(months.map((e) => e.session))]).toEqual(sessions);
    expect(months.filter((e) => e.session === 'month-4').map((e) => e.text)).toEqual([...known, unknown]);
    // The other manifests carry no sessions: learning from use shuffles them as before.
    expect(read('moderate', 'tune-in-use.json').some((e) => 'session' in e)).toBe(false);
  });

  it('makes each speaker users of six phrases each, to whom everything else they say is unknown', () => {
    const enrol = read('moderate-small', 'enroll.json');
    const of = (user: string, list: ManifestEntry[]): string[] =>
      list.filter((e) => e.speaker === `${moderate.id}/${user}`).map((e) => e.text);
    expect(of('1', enrol)).toEqual(known.slice(0, 6));
    // The seventh phrase opens the second group.
    expect(of('2', enrol)).toEqual([known[6]]);
    const test = read('moderate-small', 'test.json');
    expect(of('1', test)).toEqual([...known, unknown]);
    expect(of('2', test)).toEqual([...known, unknown]);
    expect(test.every((e) => e.speaker.startsWith(`${moderate.id}/`))).toBe(true);
  });
});
