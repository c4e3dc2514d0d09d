import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Matcher } from '../decode/matcher.js';
import { RecognitionStream } from '../decode/streaming.js';
import { narrowBand } from '../eval/channels.js';
import { take } from '../test/phrases.js';
import { concat, noise, withNoise } from '../test/signals.js';
import { takeFeatures } from './features-of-take.js';
import {
  DEFAULT_SETTINGS,
  FULL_CEPSTRA,
  makeTemplate,
  MODEL_VERSION,
  normaliseText,
  PHONE_MODEL_VERSION,
  templateAsQuery,
  templateStep,
  type Prepared,
  type Profile,
} from './profile.js';
import { checkProfileFile, deserializeProfile, sealHolds, serializeProfile } from './serialize.js';
import { DtwWorkspace } from './dtw.js';
import { align, prune, sketchDistance, SketchTable } from './scoring.js';
import {
  BEYOND_REPETITION,
  FAR_BEYOND_REPETITION,
  LOUD_ROOM,
  impostorCandidates,
  DYNAMIC_RANGE,
  IMPORTED_THRESHOLD,
  RELATIVE_CALIBRATION,
  thresholdForImported,
  trainProfile,
  WHITENED_CALIBRATION,
  WHITENED_FRONT_END,
} from './train.js';

const WHITENED_CEPSTRA = WHITENED_FRONT_END.cepstra;
import { SpeechError } from '../errors.js';
import { SAMPLE_RATE } from '../units.js';

const names = ['yes', 'no', 'help me', 'water please', 'thank you', 'call my son'];
const items = names.flatMap((text, p) => [0, 1, 2].map((t) => ({ text, audio: take(p, t) })));
const fixedClock = () => new Date('2026-01-01T00:00:00Z');
/** A test phrase in a room whose noise reaches every band, as a laptop or phone microphone
 * records it (the phrases alone hold nothing above 3 kHz: band-limited by what they are). */
const inRoom = (p: number, t: number): Float32Array => withNoise(take(p, t), 0.02, 100 + 10 * p + t);
const roomItems = names.flatMap((text, p) => [0, 1, 2].map((t) => ({ text, audio: inRoom(p, t) })));

describe('trainProfile', () => {
  const profile = trainProfile(items, { now: fixedClock });

  it('builds one template per take, each with its impostor scale', () => {
    expect(profile.version).toBe(MODEL_VERSION);
    expect(profile.phrases).toEqual(names);
    expect(profile.templates).toHaveLength(18);
    expect(profile.templateScales).toHaveLength(18);
    for (const [i, s] of profile.templateScales.entries()) {
      // A template's closest other phrases lie farther than its own phrase's other takes.
      expect(s).toBeGreaterThan(profile.scales[profile.templates[i]?.phrase ?? 0] ?? Infinity);
    }
    // Three takes of each phrase are enough to learn the whitening (docs/decisions/0057),
    // and a whitened profile matches on fewer cepstra (docs/decisions/0062).
    expect(profile.settings.cepstra).toBe(WHITENED_CEPSTRA);
    expect(profile.settings.deltaWindow).toBe(WHITENED_FRONT_END.deltaWindow);
    // ...and cuts pauses short (docs/decisions/0064).
    expect(profile.settings.pauseFloor).toBe(WHITENED_FRONT_END.pauseFloor);
    expect(profile.whitening).toHaveLength((2 * WHITENED_CEPSTRA) ** 2);
    expect(profile.templates[0]?.dim).toBe(2 * WHITENED_CEPSTRA);
    // The whitened rule, beside how unevenly the user's takes fit each other
    // (docs/decisions/0058, 0059).
    expect(profile.calibration.weights).toEqual(WHITENED_CALIBRATION.weights);
    expect(profile.calibration.typicalMisfit).toBeGreaterThan(0);
    expect(profile.calibration.beyondRepetition).toEqual(BEYOND_REPETITION);
    // How far the takes rose over their room, for a live utterance in a louder one
    // (docs/decisions/0085): these tones rise some 50 dB over their quiet room.
    const { riseDb, ...allowance } = profile.calibration.loudRoom ?? { riseDb: NaN };
    expect(allowance).toEqual(LOUD_ROOM);
    expect(riseDb).toBeGreaterThan(30);
    expect(riseDb).toBeLessThan(70);
    expect(profile.calibration.threshold).toBe(0.5);
    expect(trainProfile(items, { threshold: 0.7 }).calibration.threshold).toBe(0.7);
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
    const confidenceOf = (p: number, t: number): number =>
      m.recognise(takeFeatures(take(p, t), profile.settings).features).confidence;
    const unknown = [7, 8, 9, 10, 11].flatMap((p) => [5, 6].map((t) => confidenceOf(p, t)));
    const known = names.flatMap((_, p) => [5, 6].map((t) => confidenceOf(p, t)));
    // Every new take of an enrolled phrase is more confident than every unknown phrase...
    expect(Math.min(...known)).toBeGreaterThan(Math.max(...unknown));
    // ...and most unknown ones fall under the cut, which was tuned on speech, not on these
    // tone sequences.
    expect(unknown.filter((c) => c >= profile.calibration.threshold).length).toBeLessThanOrEqual(4);
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

  it('works from a single take per phrase, on the features as they are', () => {
    const single = trainProfile(names.map((text, p) => ({ text, audio: take(p, 0) })));
    // One take of each phrase says nothing about how the user's repetitions vary.
    expect(single.whitening).toBeUndefined();
    // Judged on the plain rule, with no allowance for a loud room: with one, one-take
    // profiles accepted far more unknown words there (docs/decisions/0085).
    expect(single.calibration).toEqual(RELATIVE_CALIBRATION);
    // Unwhitened, the highest cepstra still help: all twenty are kept.
    expect(single.settings.cepstra).toBeUndefined();
    expect(single.settings.deltaWindow).toBeUndefined();
    expect(single.settings.pauseFloor).toBeUndefined();
    expect(single.templates[0]?.dim).toBe(2 * FULL_CEPSTRA);
    const m = new Matcher(single);
    const r = m.recognise(takeFeatures(take(2, 7), single.settings).features);
    expect(r.alternatives[0]?.text).toBe(names[2]);
  });

  it('scales each template by its three closest takes of its closest other phrases', () => {
    const ws = new DtwWorkspace();
    const queries = profile.templates.map(templateAsQuery);
    const candidates = impostorCandidates(profile.templates, queries, names.length, ws);
    profile.templates.forEach((_, i) => {
      const distances = profile.templates
        .filter((t) => candidates[i]?.phrases.includes(t.phrase))
        .map((t) => align(queries[i] as Prepared, t, profile.settings, ws))
        .sort((a, b) => a - b);
      const closest = distances.slice(0, 3);
      expect(profile.templateScales[i]).toBeCloseTo(closest.reduce((a, b) => a + b, 0) / 3, 5);
    });
  });

  it('gives a one-phrase profile a finite impostor scale', () => {
    const one = trainProfile([0, 1, 2].map((t) => ({ text: 'yes', audio: take(0, t) })));
    for (const s of one.templateScales) expect(Number.isFinite(s) && s > 0).toBe(true);
  });
});

describe('profiles of imported takes kept as recorded', () => {
  it('reject at their own cut, and in proportion when only some takes were imported', () => {
    expect(thresholdForImported(0)).toBeCloseTo(RELATIVE_CALIBRATION.threshold, 12);
    expect(thresholdForImported(1)).toBeCloseTo(IMPORTED_THRESHOLD, 12);
    const half = thresholdForImported(0.5);
    expect(half).toBeGreaterThan(RELATIVE_CALIBRATION.threshold);
    expect(half).toBeLessThan(IMPORTED_THRESHOLD);

    const cutOf = (imported: (i: number) => boolean): number =>
      trainProfile(
        items.map((item, i) => ({ ...item, keptAsRecorded: imported(i) })),
        { now: fixedClock },
      ).calibration.threshold;
    expect(cutOf(() => true)).toBeCloseTo(IMPORTED_THRESHOLD, 12);
    expect(cutOf(() => false)).toBe(RELATIVE_CALIBRATION.threshold);
    expect(cutOf((i) => i % 3 === 0)).toBeCloseTo(thresholdForImported(1 / 3), 12);
    // A cut asked for is the cut.
    expect(
      trainProfile(
        items.map((item) => ({ ...item, keptAsRecorded: true })),
        { now: fixedClock, threshold: 0.6 },
      ).calibration.threshold,
    ).toBe(0.6);
  });
});

describe('the closest other phrases of every take', () => {
  const templatesOf = (phrases: number, takes: number) => {
    const features = Array.from(
      { length: phrases * takes },
      (_, i) => takeFeatures(take(Math.floor(i / takes), i % takes), DEFAULT_SETTINGS).features,
    );
    const step = templateStep(features);
    const templates = features.map((f, i) => makeTemplate(f, Math.floor(i / takes), DEFAULT_SETTINGS, step));
    return { templates, queries: templates.map(templateAsQuery) };
  };

  it('are those the first pass finds one take at a time, with every take of three a phrase', () => {
    // Twelve phrases of three takes: each take has more other phrases than it keeps.
    const { templates, queries } = templatesOf(12, 3);
    const ws = new DtwWorkspace();
    const together = impostorCandidates(templates, queries, 12, ws);
    queries.forEach((q, i) => {
      const own = Math.floor(i / 3);
      const notOwn = (j: number): boolean => templates[j]?.phrase === own;
      const phrases = prune(templates, 12, q, q.sketch, 3, ws, notOwn);
      expect(together[i]?.phrases).toEqual(phrases);
      expect(phrases).toHaveLength(3);
      expect(phrases).not.toContain(own);
      const all = templates.flatMap((t, j) => (phrases.includes(t.phrase) ? [j] : []));
      expect([...(together[i]?.takes ?? [])].sort((a, b) => a - b)).toEqual(all);
    });
  });

  it("compare sketches bit for bit as the decoder's first pass does", () => {
    const { templates, queries } = templatesOf(4, 3);
    const table = new SketchTable(templates, queries);
    const ws = new DtwWorkspace();
    queries.forEach((q, i) =>
      templates.forEach((t, j) =>
        expect(table.distance(i, j, ws)).toBe(sketchDistance(q.sketch, q.frames, t, ws)),
      ),
    );
  });

  it('keep, of a phrase with more takes, the three closest by sketch', () => {
    const { templates, queries } = templatesOf(4, 6);
    const ws = new DtwWorkspace();
    const together = impostorCandidates(templates, queries, 4, ws);
    queries.forEach((q, i) => {
      const { phrases = [], takes = [] } = together[i] ?? {};
      expect(takes).toHaveLength(3 * phrases.length);
      for (const p of phrases) {
        const byDistance = templates
          .flatMap((t, j) => (t.phrase === p ? [{ j, d: sketchDistance(q.sketch, q.frames, t, ws) }] : []))
          .sort((a, b) => a.d - b.d)
          .map(({ j }) => j);
        const kept = takes.filter((j) => templates[j]?.phrase === p);
        expect([...kept].sort((a, b) => a - b)).toEqual(byDistance.slice(0, 3).sort((a, b) => a - b));
      }
    });
  });
});

describe('a profile of full-band takes', () => {
  const held = names.flatMap((text, p) => [5, 6, 7].map((t) => ({ text, audio: inRoom(p, t) })));
  const decide = (profile: Profile, audio: Float32Array) =>
    new Matcher(profile).recognise(takeFeatures(audio, profile.settings).features);

  it('floors the quietest bands; band-limited takes do not', () => {
    expect(trainProfile(roomItems).settings.dynamicRange).toBe(DYNAMIC_RANGE);
    const narrow = roomItems.map((item) => ({ ...item, audio: narrowBand(item.audio) }));
    expect(trainProfile(narrow).settings.dynamicRange).toBeUndefined();
    expect(trainProfile(items).settings.dynamicRange).toBeUndefined();
  });

  it('understands the same phrases from an 8 kHz headset (docs/decisions/0066)', () => {
    const floored = trainProfile(roomItems);
    for (const { text, audio } of held) {
      const r = decide(floored, narrowBand(audio));
      expect(r.text).toBe(text);
      expect(r.confidence).toBeGreaterThan(0.9);
      expect(decide(floored, audio).text).toBe(text);
    }
    // Without the floor the empty upper bands read as detail: some are no longer understood.
    const plain = trainProfile(roomItems, { settings: { dynamicRange: undefined } });
    const lowest = Math.min(...held.map(({ audio }) => decide(plain, narrowBand(audio)).confidence));
    expect(lowest).toBeLessThan(plain.calibration.threshold);
  });
});

describe('another voice in the room', () => {
  /** Phrase `p` said with another voice 20 dB under it just before and just after. */
  const amidTalk = (p: number): Float32Array => {
    const other = take((p + 1) % names.length, 9).subarray(0, SAMPLE_RATE);
    const mine = take(p, 8);
    const heard = new Float32Array(2 * other.length + mine.length);
    heard.set(other.map((v) => 0.1 * v));
    heard.set(mine, other.length);
    heard.set(
      other.map((v) => 0.1 * v),
      other.length + mine.length,
    );
    return heard;
  };
  /** The stream's first final: the user's phrase with the voice before it, unless the
   * end-pointer, hearing the room (the default), cuts the voice away. */
  const firstFinal = (profile: Profile, audio: Float32Array, hearsRoom = false) => {
    const stream = new RecognitionStream(
      new Matcher(profile),
      hearsRoom ? {} : { endpointer: { busyAfter: undefined } },
    );
    return [...stream.push(audio), ...stream.end()].find((e) => e.type === 'final');
  };
  const everyFrame = trainProfile(items, { settings: { endSkip: undefined } });

  it('is left out of the alignment where it is quieter than the user (docs/decisions/0074)', () => {
    const profile = trainProfile(items);
    for (const p of [2, 5]) {
      const heard = amidTalk(p);
      expect(firstFinal(profile, heard)).toMatchObject({ text: names[p], rejected: false });
      // Aligned frame by frame, the other voice makes the phrase too far to accept.
      expect(firstFinal(everyFrame, heard)).toMatchObject({ text: null, rejected: true });
    }
  });

  it('is cut away by an end-pointer that hears the room talk (docs/decisions/0075)', () => {
    for (const p of [2, 5]) {
      // A stream that has listened to the quiet room for a while, as a live one has.
      const final = firstFinal(everyFrame, concat(noise(2.5), amidTalk(p)), true);
      expect(final).toMatchObject({ text: names[p], rejected: false });
      // The utterance is the phrase alone: it starts where the phrase does, 3.5 s in.
      expect(final?.type === 'final' && final.start).toBeGreaterThan(3.35);
    }
  });
});

describe('serialised profiles', () => {
  const profile = trainProfile(items, { now: fixedClock });
  const bytes = serializeProfile(profile);
  // Files of earlier formats are made from a profile on their features: no allowance for a
  // loud room, as before format 22, every live frame aligned, as before format 20, pauses
  // kept, as before format 16, twenty cepstra, as before format 14, and every cepstrum
  // scaled to unit variance, as before format 12.
  const before22Bytes = unsealed(serializeProfile(withoutLoudRoom(profile)));
  const before20 = withoutLoudRoom(
    trainProfile(items, { now: fixedClock, settings: { endSkip: undefined } }),
  );
  const before16 = withoutLoudRoom(
    trainProfile(items, { now: fixedClock, settings: { pauseFloor: undefined, endSkip: undefined } }),
  );
  const before14 = withoutLoudRoom(
    trainProfile(items, {
      now: fixedClock,
      settings: { cepstra: undefined, deltaWindow: undefined, pauseFloor: undefined, endSkip: undefined },
    }),
  );
  const before12 = withoutLoudRoom(
    trainProfile(items, {
      now: fixedClock,
      settings: {
        variancePower: undefined,
        cepstra: undefined,
        deltaWindow: undefined,
        pauseFloor: undefined,
        endSkip: undefined,
      },
    }),
  );
  const before12Bytes = unsealed(serializeProfile(before12));
  // Before format 10 files had no misfitAbove either.
  const before10Settings = { ...before12.settings, misfitAbove: undefined };

  it('is compact and round-trips to the very same templates and decisions', () => {
    const back = deserializeProfile(bytes);
    expect(back.phrases).toEqual(profile.phrases);
    expect(back.calibration).toEqual(profile.calibration);
    expect(back.step).toBe(profile.step);
    expect(bytes.length / items.length).toBeLessThan(4000);
    back.templates.forEach((t, i) => {
      const trained = profile.templates[i];
      expect(t.data).toEqual(trained?.data);
      expect(t.half.data).toEqual(trained?.half.data);
      expect(t.sketch.data).toEqual(trained?.sketch.data);
    });
    for (const [ra, rb] of decisionsOf(profile, back)) {
      expect(rb.alternatives.map((x) => x.text)).toEqual(ra.alternatives.map((x) => x.text));
      // Only the impostor scales are rounded in the file (to six digits).
      expect(rb.confidence).toBeCloseTo(ra.confidence, 5);
    }
  });

  it('reads a file held in a Node Buffer, or inside a larger buffer, as it reads its own bytes', () => {
    // A Buffer's slice is a view, not a copy; a file read with fs comes as one.
    const padded = new Uint8Array(bytes.length + 24);
    padded.set(bytes, 24);
    for (const held of [Buffer.from(bytes), padded.subarray(24)]) {
      const back = deserializeProfile(held);
      back.templates.forEach((t, i) => expect(t.data).toEqual(profile.templates[i]?.data));
    }
  });

  it('reads files written with a quantisation step per dimension', () => {
    const back = deserializeProfile(withStepPerDimension(bytes));
    expect(back.templates.map((t) => t.frames)).toEqual(profile.templates.map((t) => t.frames));
    for (const [ra, rb] of decisionsOf(profile, back)) {
      expect(rb.text).toBe(ra.text);
      expect(Math.abs(rb.confidence - ra.confidence)).toBeLessThan(0.05);
    }
  });

  it('keeps the whitening, and refuses a damaged one', () => {
    const back = deserializeProfile(bytes);
    expect(back.whitening).toEqual(profile.whitening);
    for (const damaged of [[1, 2, 3], new Array(1600).fill('x'), 'none']) {
      expect(() => deserializeProfile(withHeader(bytes, { whitening: damaged }))).toThrow(/damaged/);
    }
  });

  it('keeps the misfit weight from format 8 on, and refuses it in earlier formats or damaged', () => {
    expect(deserializeProfile(bytes).calibration).toEqual(profile.calibration);
    const v6 = withHeader(before12Bytes, {
      calibration: { weights: before12.calibration.weights, threshold: 0.5 },
      settings: before10Settings,
    });
    new DataView(v6.buffer).setUint16(4, 6, true);
    expect(() => deserializeProfile(v6)).toThrow(/damaged/);
    for (const weights of [[1, 2], [1, 2, 3, 4, 5], [1, 2, 'x'], 'none']) {
      expect(() =>
        deserializeProfile(withHeader(bytes, { calibration: { weights, threshold: 0.5 } })),
      ).toThrow(/damaged/);
    }
  });

  it('keeps the typical misfit and the distance beyond repetition from format 10 on, and refuses them earlier or damaged', () => {
    const { weights } = profile.calibration;
    const v8 = before12Bytes.slice();
    new DataView(v8.buffer).setUint16(4, 8, true);
    expect(() => deserializeProfile(v8)).toThrow(/damaged/);
    for (const calibration of [
      { weights: weights.slice(0, 3), threshold: 0.5, typicalMisfit: 0.2 },
      { weights, threshold: 0.5, typicalMisfit: 'high' },
      { weights, threshold: 0.5, typicalMisfit: null },
      { weights, threshold: 0.5, beyondRepetition: { above: 'far', weight: -10 } },
      { weights, threshold: 0.5, beyondRepetition: { above: 0.2 } },
      { weights, threshold: 0.5, beyondRepetition: 5 },
    ]) {
      expect(() => deserializeProfile(withHeader(bytes, { calibration }))).toThrow(/damaged/);
    }
  });

  it('keeps the share of variance divided out from format 12 on, and refuses it earlier or damaged', () => {
    expect(deserializeProfile(bytes).settings.variancePower).toBe(DEFAULT_SETTINGS.variancePower);
    const v10 = unsealed(bytes);
    new DataView(v10.buffer).setUint16(4, 10, true);
    expect(() => deserializeProfile(v10)).toThrow(/damaged/);
    for (const variancePower of [0, -1, 1.5, 'half', null]) {
      const settings = { ...profile.settings, variancePower };
      expect(() => deserializeProfile(withHeader(bytes, { settings }))).toThrow(/damaged/);
    }
    // A format 10 file, without it, decodes on unit-variance features as it always did.
    const back = readAsFormat(before12, 10);
    expect(back.settings.variancePower).toBeUndefined();
  });

  it('keeps the cepstra count and delta window from format 14 on, and refuses them earlier or damaged', () => {
    expect(deserializeProfile(bytes).settings.cepstra).toBe(WHITENED_CEPSTRA);
    expect(deserializeProfile(bytes).settings.deltaWindow).toBe(WHITENED_FRONT_END.deltaWindow);
    for (const field of ['cepstra', 'deltaWindow']) {
      const v12 = withHeader(bytes, { settings: { ...before14.settings, [field]: 3 } });
      new DataView(v12.buffer).setUint16(4, 12, true);
      expect(() => deserializeProfile(v12)).toThrow(/damaged/);
    }
    for (const cepstra of [0, 21, 2.5, '16', null]) {
      const settings = { ...profile.settings, cepstra };
      expect(() => deserializeProfile(withHeader(bytes, { settings }))).toThrow(/damaged/);
    }
    for (const deltaWindow of [0, 13, 1.5, 'wide', null]) {
      const settings = { ...profile.settings, deltaWindow };
      expect(() => deserializeProfile(withHeader(bytes, { settings }))).toThrow(/damaged/);
    }
    // A format 12 file, without them, decodes on twenty cepstra and the old deltas as it
    // always did.
    const back = readAsFormat(before14, 12);
    expect(back.settings.cepstra).toBeUndefined();
    expect(back.settings.deltaWindow).toBeUndefined();
    expect(back.whitening).toHaveLength((2 * FULL_CEPSTRA) ** 2);
  });

  it('cuts pauses from format 16 on, and refuses the setting earlier or damaged', () => {
    expect(deserializeProfile(bytes).settings.pauseFloor).toBe(WHITENED_FRONT_END.pauseFloor);
    const v14 = withHeader(before22Bytes, {});
    new DataView(v14.buffer).setUint16(4, 14, true);
    expect(() => deserializeProfile(v14)).toThrow(/damaged/);
    for (const pauseFloor of [0, -3, 'quiet', null]) {
      const settings = { ...profile.settings, pauseFloor };
      expect(() => deserializeProfile(withHeader(bytes, { settings }))).toThrow(/damaged/);
    }
    // A format 14 file, without it, keeps every pause as it always did.
    expect(readAsFormat(before16, 14).settings.pauseFloor).toBeUndefined();
  });

  it('floors the quietest bands from format 18 on, and refuses the setting earlier or damaged', () => {
    const flooredProfile = trainProfile(roomItems, { now: fixedClock });
    const floored = serializeProfile(flooredProfile);
    expect(new DataView(floored.buffer).getUint16(4, true)).toBe(MODEL_VERSION);
    expect(deserializeProfile(floored).settings.dynamicRange).toBe(DYNAMIC_RANGE);
    const v16 = unsealed(serializeProfile(withoutLoudRoom(flooredProfile)));
    new DataView(v16.buffer).setUint16(4, 16, true);
    expect(() => deserializeProfile(v16)).toThrow(/damaged/);
    for (const dynamicRange of [0, -60, 'wide', null]) {
      const settings = { ...profile.settings, dynamicRange };
      expect(() => deserializeProfile(withHeader(bytes, { settings }))).toThrow(/damaged/);
    }
    // A format 16 file, without it, decides as it always did.
    expect(readAsFormat(before20, 16).settings.dynamicRange).toBeUndefined();
  });

  it('leaves quiet ends out of live alignments from format 20 on, and refuses the setting earlier or damaged', () => {
    expect(deserializeProfile(bytes).settings.endSkip).toEqual(WHITENED_FRONT_END.endSkip);
    const v18 = withHeader(before22Bytes, {});
    new DataView(v18.buffer).setUint16(4, 18, true);
    expect(() => deserializeProfile(v18)).toThrow(/damaged/);
    for (const endSkip of [
      { quietBelowDb: 0, cost: 1.5 },
      { quietBelowDb: 12, cost: -1 },
      { quietBelowDb: 12 },
      { quietBelowDb: 12, cost: 1.5, lead: 3 },
      { quietBelowDb: '12', cost: 1.5 },
      12,
      null,
    ]) {
      const settings = { ...profile.settings, endSkip };
      expect(() => deserializeProfile(withHeader(bytes, { settings }))).toThrow(/damaged/);
    }
    // A format 18 file, without it, aligns every frame as it always did.
    expect(readAsFormat(before20, 18).settings.endSkip).toBeUndefined();
  });

  it("keeps the loud room's allowance from format 22 on, and refuses it earlier or damaged", () => {
    const { loudRoom } = profile.calibration;
    expect(deserializeProfile(bytes).calibration.loudRoom).toEqual(loudRoom);
    const v20 = unsealed(bytes);
    new DataView(v20.buffer).setUint16(4, 20, true);
    expect(() => deserializeProfile(v20)).toThrow(/damaged/);
    for (const damaged of [
      { ...loudRoom, riseDb: 'loud' },
      { ...loudRoom, weight: null },
      { ...loudRoom, fromDb: 20, fullDb: 8 },
      { riseDb: 40 },
      40,
      null,
    ]) {
      const calibration = { ...profile.calibration, loudRoom: damaged };
      expect(() => deserializeProfile(withHeader(bytes, { calibration }))).toThrow(/damaged/);
    }
    // A format 20 file, without it, decides as it always did.
    expect(readAsFormat(withoutLoudRoom(profile), 20).calibration.loudRoom).toBeUndefined();
  });

  it('keeps the voice print from format 24 on, and refuses it earlier or damaged', () => {
    const { voice } = profile;
    expect(voice).toBeDefined();
    if (voice === undefined) return;
    const back = deserializeProfile(bytes).voice;
    expect(back?.bands).toBe(voice.bands);
    expect(back?.scale).toBe(voice.scale);
    back?.codebook.forEach((x, i) => expect(x).toBeCloseTo(voice.codebook[i] as number, 3));
    const v22 = unsealed(bytes);
    new DataView(v22.buffer).setUint16(4, 22, true);
    expect(() => deserializeProfile(v22)).toThrow(/damaged/);
    const codebook = Array.from(voice.codebook);
    for (const damaged of [
      { ...voice, codebook: codebook.slice(1) },
      { ...voice, codebook: [] },
      { ...voice, codebook: codebook.map((x, i) => (i === 3 ? 'loud' : x)) },
      { ...voice, codebook, scale: 0 },
      { ...voice, codebook, bands: 0 },
      { ...voice, codebook, bands: 33 },
      null,
    ]) {
      expect(() => deserializeProfile(withHeader(bytes, { voice: damaged }))).toThrow(/damaged/);
    }
    // A format 22 file, without it, decides as it always did.
    expect(readAsFormat(profile, 22).voice).toBeUndefined();
  });

  it('keeps the steeper hinge far beyond repetition from format 26 on, and refuses it earlier or damaged', () => {
    const { farBeyondRepetition } = profile.calibration;
    expect(farBeyondRepetition).toEqual(FAR_BEYOND_REPETITION);
    expect(deserializeProfile(bytes).calibration.farBeyondRepetition).toEqual(farBeyondRepetition);
    const v24 = unsealed(bytes);
    new DataView(v24.buffer).setUint16(4, 24, true);
    expect(() => deserializeProfile(v24)).toThrow(/damaged/);
    const { beyondRepetition: _, ...withoutNearer } = profile.calibration;
    for (const calibration of [
      { ...profile.calibration, farBeyondRepetition: { above: 'far', weight: -80 } },
      { ...profile.calibration, farBeyondRepetition: { above: 0.45 } },
      { ...profile.calibration, farBeyondRepetition: null },
      // Only beside the hinge nearer in.
      withoutNearer,
    ]) {
      expect(() => deserializeProfile(withHeader(bytes, { calibration }))).toThrow(/damaged/);
    }
    // A format 24 file, without it, decides as it always did.
    expect(readAsFormat(profile, 24).calibration.farBeyondRepetition).toBeUndefined();
  });

  it('keeps the steeper hinge leaving phrases to the misfit from format 28 on, and refuses it earlier or damaged', () => {
    expect(profile.calibration.farBeyondRepetition?.leavesPhrasesToMisfit).toBe(true);
    expect(deserializeProfile(bytes).calibration.farBeyondRepetition?.leavesPhrasesToMisfit).toBe(true);
    const v26 = unsealed(bytes);
    new DataView(v26.buffer).setUint16(4, 26, true);
    expect(() => deserializeProfile(v26)).toThrow(/damaged/);
    const { beyondRepetition, farBeyondRepetition } = profile.calibration;
    for (const calibration of [
      {
        ...profile.calibration,
        farBeyondRepetition: { ...farBeyondRepetition, leavesPhrasesToMisfit: false },
      },
      {
        ...profile.calibration,
        farBeyondRepetition: { ...farBeyondRepetition, leavesPhrasesToMisfit: 'yes' },
      },
      // Only on the steeper hinge.
      { ...profile.calibration, beyondRepetition: { ...beyondRepetition, leavesPhrasesToMisfit: true } },
    ]) {
      expect(() => deserializeProfile(withHeader(bytes, { calibration }))).toThrow(/damaged/);
    }
    // A format 26 file judges every phrase by it, as it always did.
    expect(readAsFormat(profile, 26).calibration.farBeyondRepetition?.leavesPhrasesToMisfit).toBeUndefined();
  });

  it('refuses a damaged misfitAbove, or one in a file before format 10', () => {
    for (const misfitAbove of [-1, 'long', null]) {
      const settings = { ...profile.settings, misfitAbove };
      expect(() => deserializeProfile(withHeader(bytes, { settings }))).toThrow(/damaged/);
    }
    const v8 = withHeader(before12Bytes, {
      calibration: { weights: before12.calibration.weights, threshold: 0.5 },
    });
    new DataView(v8.buffer).setUint16(4, 8, true);
    expect(() => deserializeProfile(v8)).toThrow(/damaged/);
  });

  it('decides about a format 8 file exactly as the build that wrote it did', () => {
    const fixtures = new URL('../test/fixtures/', import.meta.url);
    const file = new Uint8Array(readFileSync(new URL('format-8-tones.model', fixtures)));
    const { heard } = JSON.parse(readFileSync(new URL('format-8-tones.json', fixtures), 'utf8')) as {
      heard: { phrase: number; take: number; text: string | null; confidence: number }[];
    };
    const back = deserializeProfile(file);
    expect(back.version).toBe(8);
    const m = new Matcher(back);
    for (const h of heard) {
      const r = m.recognise(takeFeatures(take(h.phrase, h.take), back.settings).features);
      expect(r.text).toBe(h.text);
      expect(r.confidence).toBeCloseTo(h.confidence, 9);
    }
  });

  it('reads format 6 files, from before the misfit, and decides as their three weights say', () => {
    const [w0, w1, w2] = before12.calibration.weights;
    const calibration = { weights: [w0, w1, w2] as [number, number, number], threshold: 0.5 };
    const v6 = withHeader(before12Bytes, { calibration, settings: before10Settings, voice: undefined });
    new DataView(v6.buffer).setUint16(4, 6, true);
    const back = deserializeProfile(v6);
    expect(back.version).toBe(6);
    // The misfit is left out of the score: the same decisions as the profile without it.
    for (const [ra, rb] of decisionsOf({ ...before12, calibration }, back)) {
      expect(rb.text).toBe(ra.text);
      expect(rb.confidence).toBeCloseTo(ra.confidence, 6);
    }
  });

  it('reads files of formats 4 and 5, from before whitening, and decodes them unwhitened', () => {
    const unwhitened = trainProfile(
      names.map((text, p) => ({ text, audio: take(p, 0) })),
      { now: fixedClock, settings: { variancePower: undefined } },
    );
    const v4 = withHeader(serializeProfile(unwhitened), {
      settings: { ...unwhitened.settings, misfitAbove: undefined },
      voice: undefined,
    });
    new DataView(v4.buffer).setUint16(4, 4, true);
    const back = deserializeProfile(v4);
    expect(back.version).toBe(4);
    expect(back.whitening).toBeUndefined();
    for (const [ra, rb] of decisionsOf(unwhitened, back)) expect(rb.text).toBe(ra.text);
  });

  it('still reads format 1 files, judging each template by its phrase scale', () => {
    // Format 1 had no misfit weight.
    const v1 = withHeader(before12Bytes, {
      calibration: { weights: [-3.1, -10, -20], threshold: 0.5 },
      settings: before10Settings,
      voice: undefined,
    });
    new DataView(v1.buffer).setUint16(4, 1, true);
    const back = deserializeProfile(v1);
    expect(Array.from(back.templateScales)).toEqual(back.templates.map((t) => back.scales[t.phrase]));
    expect(
      new Matcher(back).recognise(takeFeatures(take(1, 8), back.settings).features).alternatives[0]?.text,
    ).toBe(names[1]);
  });

  it('refuses other files and other versions, loading or only checking', () => {
    for (const read of [deserializeProfile, checkProfileFile]) {
      expect(() => read(new Uint8Array([1, 2, 3]))).toThrow(/cannot be loaded/);
      const other = bytes.slice();
      other[4] = 99;
      expect(() => read(other)).toThrow(/version 99/);
      // Cut short, it has lost its seal too: its templates fall short of the header's count.
      expect(() => read(bytes.slice(0, bytes.length - 10))).toThrow(/cut short/);
      expect(() => read(unsealed(bytes).slice(0, bytes.length - 20))).toThrow(/cut short/);
    }
    expect(checkProfileFile(bytes).version).toBe(MODEL_VERSION);
    expect(checkProfileFile(unsealed(bytes)).version).toBe(MODEL_VERSION);
  });

  it('seals every file it writes, and refuses one changed anywhere after', () => {
    expect(new TextDecoder().decode(bytes.subarray(bytes.length - 8, bytes.length - 4))).toBe('CRC1');
    expect(sealHolds(bytes)).toBe(true);
    // A file from before the seal has none to break.
    expect(sealHolds(unsealed(bytes))).toBe(true);
    const headerEnd = 10 + new DataView(bytes.buffer).getUint32(6, true);
    // A digit of the header (a count or a scale that still parses), a template's value, the
    // seal's own sum: each would load as another profile, or not at all, without the seal.
    const digit = new TextDecoder().decode(bytes.subarray(10, headerEnd)).search(/[0-9]/) + 10;
    for (const [at, value] of [
      [digit, bytes[digit] === 0x31 ? 0x32 : 0x31],
      [headerEnd + 5, (bytes[headerEnd + 5] as number) ^ 1],
      [bytes.length - 1, (bytes[bytes.length - 1] as number) ^ 0x80],
    ] as const) {
      const changed = bytes.slice();
      changed[at] = value;
      expect(sealHolds(changed)).toBe(false);
      expect(() => deserializeProfile(changed)).toThrow(/cannot be loaded: the file is damaged/);
      expect(() => checkProfileFile(changed)).toThrow(/cannot be loaded: the file is damaged/);
    }
    // Bytes beyond the templates that are no seal.
    const longer = new Uint8Array(bytes.length + 3);
    longer.set(unsealed(bytes));
    expect(() => deserializeProfile(longer)).toThrow(/damaged/);
    expect(() => checkProfileFile(longer)).toThrow(/damaged/);
  });

  it('reads files from before the seal as it always did', () => {
    const back = deserializeProfile(unsealed(bytes));
    for (const [ra, rb] of decisionsOf(deserializeProfile(bytes), back)) {
      expect(rb.text).toBe(ra.text);
      expect(rb.confidence).toBe(ra.confidence);
    }
  });

  it('refuses a header of the wrong shape with its own reason, never by failing to read it', () => {
    // A scale training could not measure is written as null, and read as before.
    expect(() => deserializeProfile(withHeader(bytes, { scales: [null] }))).not.toThrow();
    const { dim } = JSON.parse(
      new TextDecoder().decode(bytes.subarray(10, 10 + new DataView(bytes.buffer).getUint32(6, true))),
    ) as { dim: number };
    for (const fields of [
      { templates: undefined },
      { templates: 'none' },
      { templates: [[0, 0]] },
      { templates: [[99, 10]] },
      { templates: [[0, 1.5]] },
      { phrases: undefined },
      { phrases: [1, 2] },
      { dim: 1.5 },
      { dim: -dim },
      { steps: [1] },
      { steps: new Array<number>(dim).fill(-1) },
      { scales: ['x'] },
      { scales: undefined },
      { templateScales: ['x'] },
      { phoneMean: 'none' },
    ]) {
      expect(() => deserializeProfile(withHeader(bytes, fields)), JSON.stringify(fields)).toThrow(
        /header is damaged/,
      );
    }
  });

  it('answers any damage with a profile error: a thousand files damaged at random', () => {
    let seed = 1;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (const file of [bytes, unsealed(bytes)]) {
      for (let n = 0; n < 500; n++) {
        const damaged = file.slice(0, random() < 0.2 ? Math.floor(random() * file.length) : file.length);
        for (let k = 0; k < 3; k++)
          damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
        try {
          deserializeProfile(damaged);
        } catch (error) {
          expect(error).toBeInstanceOf(SpeechError);
          expect((error as SpeechError).code).toBe('bad_model');
        }
      }
    }
  });
});

/** What two profiles decide about a new take of each phrase, side by side. */
/** What two profiles decide about the same takes, each on the features its settings ask for. */
/**
 * `trained` written and labelled as format `version`, read back: it must decide every test
 * take exactly as `trained` does, as a file of that format always did.
 */
function readAsFormat(trained: Profile, version: number): Profile {
  // Builds before format 24 learnt no voice print, before format 26 no steeper hinge, and
  // before format 28 let it leave no phrase to the misfit.
  const { voice: _, ...withoutVoice } = trained;
  const voiced = version < 24 ? withoutVoice : trained;
  const { farBeyondRepetition: steeper, ...calibration } = voiced.calibration;
  const { leavesPhrasesToMisfit: __, ...forEveryPhrase } = steeper ?? { above: 0, weight: 0 };
  const then =
    version < 26
      ? { ...voiced, calibration }
      : version < 28 && steeper !== undefined
        ? { ...voiced, calibration: { ...calibration, farBeyondRepetition: forEveryPhrase } }
        : voiced;
  const file = unsealed(serializeProfile(then));
  new DataView(file.buffer).setUint16(4, version, true);
  const back = deserializeProfile(file);
  for (const [ra, rb] of decisionsOf(then, back)) {
    expect(rb.text).toBe(ra.text);
    expect(rb.confidence).toBeCloseTo(ra.confidence, 5);
  }
  return back;
}

function decisionsOf(a: Profile, b: Profile) {
  const ma = new Matcher(a);
  const mb = new Matcher(b);
  return names.map((_, p) => {
    const audio = take(p, 8);
    const heard = (m: Matcher, profile: Profile) =>
      m.recognise(takeFeatures(audio, profile.settings).features);
    return [heard(ma, a), heard(mb, b)] as const;
  });
}

/** The same profile as earlier builds wrote it: one quantisation step per dimension. */
function withStepPerDimension(sealedOrNot: Uint8Array): Uint8Array {
  const file = unsealed(sealedOrNot);
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const length = view.getUint32(6, true);
  const header = JSON.parse(new TextDecoder().decode(file.subarray(10, 10 + length))) as {
    dim: number;
    steps: number[];
  };
  const { dim, steps } = header;
  const values = Array.from(
    file.subarray(10 + length),
    (_, i) => view.getInt8(10 + length + i) * (steps[i % dim] as number),
  );
  const maxAbs = new Array<number>(dim).fill(0);
  values.forEach((v, i) => (maxAbs[i % dim] = Math.max(maxAbs[i % dim] as number, Math.abs(v))));
  header.steps = maxAbs.map((m) => (m > 0 ? m / 127 : 1));
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(10 + json.length + values.length);
  out.set(file.subarray(0, 6));
  new DataView(out.buffer).setUint32(6, json.length, true);
  out.set(json, 10);
  values.forEach(
    (v, i) => (out[10 + json.length + i] = Math.round(v / (header.steps[i % dim] as number)) & 0xff),
  );
  return out;
}

describe("utterances marked as none of the user's phrases", () => {
  const unknown = (p: number, takes: number[]) =>
    takes.map((t) => ({ text: 'whatever the app had said', audio: take(p, t), unknown: true }));
  const answer = (m: Matcher, p: number, t: number) =>
    m.recognise(takeFeatures(take(p, t), m.profile.settings).features);
  const profile = trainProfile([...items, ...unknown(7, [0, 1, 2]), ...unknown(8, [0, 1])], {
    now: fixedClock,
  });
  const matcher = new Matcher(profile);

  it('gather in one slot without text that is never an answer', () => {
    expect(profile.version).toBe(MODEL_VERSION);
    expect(profile.phrases).toEqual([...names, '']);
    expect(profile.unknownPhrase).toBe(names.length);
    expect(profile.templates.filter((t) => t.phrase === profile.unknownPhrase)).toHaveLength(5);
    for (const p of [7, 8]) {
      for (const t of [5, 6, 7]) {
        const r = answer(matcher, p, t);
        expect(r.rejected).toBe(true);
        expect(r.text).toBeNull();
        expect(r.alternatives.map((a) => a.text)).not.toContain('');
      }
    }
    expect(matcher.guess(takeFeatures(take(7, 5), profile.settings).features)).not.toBe('');
  });

  it('leave the enrolled phrases recognised as before', () => {
    const plain = new Matcher(trainProfile(items));
    for (let p = 0; p < names.length; p++) {
      for (const t of [5, 6]) {
        expect(answer(matcher, p, t).text).toBe(answer(plain, p, t).text);
        expect(answer(matcher, p, t).alternatives[0]?.text).toBe(names[p]);
      }
    }
  });

  it('are left out when they sound like an enrolled phrase (marked by mistake, or enrolled since)', () => {
    // Takes 3, 6 and 7 of "yes" lie as close to its enrolled takes as those do to each other.
    const mistaken = trainProfile([...items, ...unknown(0, [3, 6, 7])]);
    expect(mistaken.templates).toHaveLength(items.length);
    expect(mistaken.unknownPhrase).toBe(names.length);
    const m = new Matcher(mistaken);
    for (const t of [5, 8, 9]) expect(answer(m, 0, t).text).toBe(names[0]);
  });

  it('round-trip through the model file, and a damaged slot is refused', () => {
    const file = serializeProfile(profile);
    const back = deserializeProfile(file);
    expect(back.unknownPhrase).toBe(profile.unknownPhrase);
    for (const p of [0, 3, 7, 8]) {
      const [ra, rb] = [answer(matcher, p, 6), answer(new Matcher(back), p, 6)];
      expect(rb.text).toBe(ra.text);
      expect(rb.alternatives.map((x) => x.text)).toEqual(ra.alternatives.map((x) => x.text));
    }
    expect(() => deserializeProfile(withHeader(file, { unknownPhrase: 99 }))).toThrow(/header is damaged/);
    expect(() => deserializeProfile(withHeader(file, { unknownPhrase: 0.5 }))).toThrow(/header is damaged/);
  });

  it('are not enough to train on alone', () => {
    expect(() => trainProfile(unknown(7, [0, 1, 2]))).toThrow(/no recordings of phrases/);
  });
});

/** The profile as a build before format 22 trained it: no allowance for a loud room. */
function withoutLoudRoom(profile: Profile): Profile {
  const { loudRoom: _, ...calibration } = profile.calibration;
  return { ...profile, calibration };
}

/**
 * A file as builds before the seal wrote it (and as a build reads one written elsewhere):
 * the same bytes without their last eight, the seal, when it has one.
 */
function unsealed(file: Uint8Array): Uint8Array {
  const tag = new TextDecoder().decode(file.subarray(file.length - 8, file.length - 4));
  return file.slice(0, tag === 'CRC1' ? file.length - 8 : file.length);
}

/**
 * A model file with some of its header's fields replaced (left out where undefined),
 * unsealed: what a build makes of the header, whatever the seal would say.
 */
function withHeader(sealedOrNot: Uint8Array, fields: Record<string, unknown>): Uint8Array {
  const file = unsealed(sealedOrNot);
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const length = view.getUint32(6, true);
  const header = {
    ...(JSON.parse(new TextDecoder().decode(file.subarray(10, 10 + length))) as object),
    ...fields,
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(10 + json.length + file.length - 10 - length);
  out.set(file.subarray(0, 6));
  new DataView(out.buffer).setUint32(6, json.length, true);
  out.set(json, 10);
  out.set(file.subarray(10 + length), 10 + json.length);
  return out;
}

describe('profiles that match phones too', async () => {
  const { loadPhoneModel } = await import('../platform/phones.node.js');
  const phones = await loadPhoneModel();
  const profile = trainProfile(items, { phones, settings: { phoneWeight: 6 }, now: fixedClock });

  it('append the posteriorgram to every template and keep the user cepstral mean, in format 3', () => {
    expect(profile.version).toBe(PHONE_MODEL_VERSION);
    expect(profile.templates[0]?.dim).toBe(2 * WHITENED_CEPSTRA + 42);
    // The phone view is scored frame by frame from the stream: its pauses stay, and its
    // cepstra are taken as they come, floored or not (format 15 has no floor).
    expect(profile.settings.pauseFloor).toBeUndefined();
    expect(
      trainProfile(roomItems, { phones, settings: { phoneWeight: 6 } }).settings.dynamicRange,
    ).toBeUndefined();
    // Nor has format 15 the loud room's allowance.
    expect(profile.calibration.loudRoom).toBeUndefined();
    expect(() => trainProfile(items, { phones, settings: { phoneWeight: 6, pauseFloor: 3 } })).toThrow(
      /keep their pauses/,
    );
    expect(profile.phoneMean).toHaveLength(13);
    const file = serializeProfile(profile);
    expect(new DataView(file.buffer).getUint16(4, true)).toBe(PHONE_MODEL_VERSION);
    const back = deserializeProfile(file);
    expect(Array.from(back.phoneMean ?? [])).toEqual(Array.from(profile.phoneMean ?? []));
    expect(back.settings.phoneWeight).toBe(6);
  });

  it('recognise enrolled phrases in live streams', () => {
    const m = new Matcher(profile, phones);
    for (let p = 0; p < names.length; p++) {
      const audio = take(p, 5);
      const stream = new RecognitionStream(m);
      const events = [];
      for (let i = 0; i < audio.length; i += 3200) events.push(...stream.push(audio.subarray(i, i + 3200)));
      events.push(...stream.end());
      const finals = events.filter((e) => e.type === 'final');
      expect(finals).toHaveLength(1);
      expect(finals[0]?.alternatives[0]?.text).toBe(names[p]);
    }
  });

  it('need the acoustic model to be trained or to decode', () => {
    expect(() => new Matcher(profile)).toThrow(/phone acoustic model/);
    expect(() => trainProfile(items, { settings: { phoneWeight: 6 } })).toThrow(/phone acoustic model/);
  });
});
