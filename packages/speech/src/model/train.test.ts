import { describe, expect, it } from 'vitest';
import { Matcher } from '../decode/matcher.js';
import { take } from '../test/phrases.js';
import { takeFeatures } from './features-of-take.js';
import { DEFAULT_SETTINGS, MODEL_VERSION, normaliseText } from './profile.js';
import { deserializeProfile, serializeProfile } from './serialize.js';
import { fitLogistic, trainProfile } from './train.js';
import { SpeechError } from '../errors.js';

const names = ['yes', 'no', 'help me', 'water please', 'thank you', 'call my son'];
const items = names.flatMap((text, p) => [0, 1, 2].map((t) => ({ text, audio: take(p, t) })));
const fixedClock = () => new Date('2026-01-01T00:00:00Z');

describe('trainProfile', () => {
  const profile = trainProfile(items, { now: fixedClock });

  it('builds one template per take and a calibrated threshold', () => {
    expect(profile.version).toBe(MODEL_VERSION);
    expect(profile.phrases).toEqual(names);
    expect(profile.templates).toHaveLength(18);
    expect(profile.calibration.threshold).toBeGreaterThanOrEqual(0.2);
    expect(profile.calibration.threshold).toBeLessThanOrEqual(0.9);
    expect(profile.minSilence).toBeGreaterThanOrEqual(0.3);
    expect(profile.trainedAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('recognises new takes of enrolled phrases with high confidence', () => {
    const m = new Matcher(profile);
    for (let p = 0; p < names.length; p++) {
      for (const t of [5, 6]) {
        const r = m.recognise(takeFeatures(take(p, t), profile.settings).features);
        expect(r.alternatives[0]?.text).toBe(names[p]);
        expect(r.confidence).toBeGreaterThan(0);
        expect(r.confidence).toBeLessThanOrEqual(1);
      }
    }
  });

  it('rejects phrases that were never enrolled', () => {
    const m = new Matcher(profile);
    let accepted = 0;
    for (const p of [7, 8, 9, 10, 11]) {
      for (const t of [5, 6])
        if (!m.recognise(takeFeatures(take(p, t), profile.settings).features).rejected) accepted++;
    }
    expect(accepted).toBeLessThanOrEqual(1);
  });

  it('treats texts differing only in case and punctuation as one phrase', () => {
    const p = trainProfile([
      { text: 'Yes!', audio: take(0, 0) },
      { text: 'yes', audio: take(0, 1) },
    ]);
    expect(p.phrases).toEqual(['Yes!']);
    expect(normaliseText("  Don't STOP, please. ")).toBe('dont stop please');
  });

  it('refuses empty training data', () => {
    expect(() => trainProfile([])).toThrow(SpeechError);
    expect(() => trainProfile([{ text: ' ?! ', audio: take(0, 0) }])).toThrow(SpeechError);
  });

  it('works from a single take per phrase using the prior calibration', () => {
    const single = trainProfile(names.map((text, p) => ({ text, audio: take(p, 0) })));
    const m = new Matcher(single);
    const r = m.recognise(takeFeatures(take(2, 7), single.settings).features);
    expect(r.alternatives[0]?.text).toBe(names[2]);
  });
});

describe('serialised profiles', () => {
  const profile = trainProfile(items, { now: fixedClock });
  const bytes = serializeProfile(profile);

  it('is compact and round-trips to the same decisions', () => {
    const back = deserializeProfile(bytes);
    expect(back.phrases).toEqual(profile.phrases);
    expect(back.calibration).toEqual(profile.calibration);
    expect(bytes.length / items.length).toBeLessThan(4000);
    const a = new Matcher(profile);
    const b = new Matcher(back);
    for (let p = 0; p < names.length; p++) {
      const f = takeFeatures(take(p, 8), DEFAULT_SETTINGS).features;
      const ra = a.recognise(f);
      const rb = b.recognise(f);
      expect(rb.text).toBe(ra.text);
      expect(Math.abs(rb.confidence - ra.confidence)).toBeLessThan(0.05);
    }
  });

  it('refuses other files and other versions', () => {
    expect(() => deserializeProfile(new Uint8Array([1, 2, 3]))).toThrow(/cannot be loaded/);
    const other = bytes.slice();
    other[4] = 99;
    expect(() => deserializeProfile(other)).toThrow(/version 99/);
    expect(() => deserializeProfile(bytes.slice(0, bytes.length - 10))).toThrow(/cut short/);
  });
});

describe('fitLogistic', () => {
  it('separates two clouds and stays near the prior without data', () => {
    const samples = Array.from({ length: 200 }, (_, i) => ({
      x1: i < 100 ? -1 : 1,
      x2: 0,
      label: i < 100 ? 1 : 0,
    }));
    const w = fitLogistic(samples, [0, 0, 0], 0.01);
    expect(w[1]).toBeLessThan(-2);
    expect(fitLogistic([], [1, -2, -3], 1)).toEqual([1, -2, -3]);
  });
});
