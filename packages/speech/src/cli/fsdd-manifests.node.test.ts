import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIGITS, FSDD_SETS, fsddManifests, fsddRecordings } from './fsdd-manifests.node.js';

// Two speakers, every digit, takes 0-29, as the copy of FSDD here holds; never read as audio.
const recordings = ['george', 'theo'].flatMap((speaker) =>
  Array.from({ length: 10 }, (_, digit) =>
    Array.from({ length: 30 }, (_, take) => ({
      file: `${digit}_${speaker}_${take}.wav`,
      digit,
      speaker,
      take,
    })),
  ).flat(),
);
const setNamed = (name: string) => {
  const set = FSDD_SETS.find((s) => s.name === name);
  if (set === undefined) throw new Error(`no set ${name}`);
  return fsddManifests(set, recordings, '/data/fsdd/recordings', `/out/${name}`);
};
const takeOf = (audio: string) => Number(/_(\d+)\.wav$/.exec(audio)?.[1]);

describe('FSDD manifests', () => {
  it('enrols takes 0..k-1 of every digit and tests on takes 10-29, paths relative to the set', () => {
    const { enroll, test } = setNamed('fsdd/k3');
    expect(enroll).toHaveLength(2 * 10 * 3);
    expect(new Set(enroll.map((e) => takeOf(e.audio)))).toEqual(new Set([0, 1, 2]));
    expect(test).toHaveLength(2 * 10 * 20);
    expect(Math.min(...test.map((e) => takeOf(e.audio)))).toBe(10);
    expect(enroll[0]).toEqual({
      audio: '../../../data/fsdd/recordings/0_george_0.wav',
      text: 'zero',
      speaker: 'george',
    });
  });

  it('leaves eight and nine out of the out-of-vocabulary protocol, tested on every digit', () => {
    const { enroll, test } = setNamed('fsdd-oov/k3');
    expect(new Set(enroll.map((e) => e.text)).has('eight')).toBe(false);
    expect(new Set(enroll.map((e) => e.text)).has('nine')).toBe(false);
    expect(test.filter((e) => e.text === 'nine')).toHaveLength(2 * 20);
  });

  it('leaves every digit out in turn: five profiles a speaker, each with its own pair unknown', () => {
    const { enroll, test } = setNamed('fsdd-oov-rotations-tune/k3');
    const profiles = [...new Set(enroll.map((e) => e.speaker))];
    expect(profiles).toHaveLength(2 * 5);
    expect(profiles).toContain('theo/without-4-5');
    for (const profile of profiles) {
      const [, a, b] = /without-(\d)-(\d)$/.exec(profile) ?? [];
      const left = new Set([Number(a), Number(b)].map((d) => DIGITS[d]));
      const enrolled = enroll.filter((e) => e.speaker === profile);
      expect(enrolled).toHaveLength(8 * 3);
      expect(enrolled.some((e) => left.has(e.text))).toBe(false);
      const tested = test.filter((e) => e.speaker === profile);
      // Takes 5-9 of all ten digits, so ten of them unknown to this profile.
      expect(tested).toHaveLength(10 * 5);
      expect(tested.filter((e) => left.has(e.text))).toHaveLength(10);
      expect(new Set(tested.map((e) => takeOf(e.audio)))).toEqual(new Set([5, 6, 7, 8, 9]));
    }
    // Every digit is unknown to exactly one profile of each speaker: 300 with six speakers.
    expect(
      test.filter((e) => !enroll.some((x) => x.speaker === e.speaker && x.text === e.text)),
    ).toHaveLength(2 * 50);
  });

  it('reads the same profiles on the test takes', () => {
    const tuning = setNamed('fsdd-oov-rotations-tune/k3');
    const { enroll, test } = setNamed('fsdd-oov-rotations/k3');
    expect(enroll).toEqual(tuning.enroll);
    expect(test).toHaveLength(2 * 5 * 10 * 20);
    expect(new Set(test.map((e) => takeOf(e.audio)))).toEqual(
      new Set(Array.from({ length: 20 }, (_, i) => 10 + i)),
    );
  });

  it('enrols three other takes in turn and tests on the other seven of takes 0-9', () => {
    for (const enrol of [
      [3, 4, 5],
      [6, 7, 8],
      [1, 5, 9],
    ]) {
      const name = `k3-enrol-${enrol.join('-')}`;
      for (const [set, known] of [
        [`fsdd-other-enrolments-tune/${name}`, 10],
        [`fsdd-oov-other-enrolments-tune/${name}`, 8],
      ] as const) {
        const { enroll, test } = setNamed(set);
        expect(new Set(enroll.map((e) => takeOf(e.audio)))).toEqual(new Set(enrol));
        expect(new Set(enroll.map((e) => e.text)).size).toBe(known);
        const tested = new Set(test.map((e) => takeOf(e.audio)));
        expect(tested.size).toBe(7);
        expect(enrol.some((take) => tested.has(take))).toBe(false);
      }
    }
  });

  it('never tunes on the test takes', () => {
    for (const set of FSDD_SETS.filter((s) => s.name.includes('tune')))
      expect([...set.enrolTakes, ...set.testTakes].every((take) => take < 10)).toBe(true);
  });
});

describe('fsddRecordings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fsdd-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads digit, speaker and take from the file names and skips anything else', async () => {
    for (const name of ['7_lucas_12.wav', 'README.md', '7_lucas_x.wav']) writeFileSync(join(dir, name), '');
    expect(await fsddRecordings(dir)).toEqual([
      { file: '7_lucas_12.wav', digit: 7, speaker: 'lucas', take: 12 },
    ]);
  });
});
