import { describe, expect, it } from 'vitest';
import { Matcher } from '../decode/matcher.js';
import { take } from '../test/phrases.js';
import { concat, noise, seeded, withNoise, word } from '../test/signals.js';
import { DtwWorkspace, type Sequence } from './dtw.js';
import { takeFeatures } from './features-of-take.js';
import { cepstralDims, DEFAULT_SETTINGS, makeTemplate, prepare, templateStep } from './profile.js';
import {
  align,
  confidence,
  loudRoomAllowance,
  misfit,
  MISFIT_WINDOW,
  TEMPLATE_EDGES,
  VOICE_OVER_ROOM_ALLOWANCE,
} from './scoring.js';
import { trainProfile } from './train.js';
import { whiten } from './whitening.js';

const dims = cepstralDims(DEFAULT_SETTINGS);
/** Frames per second of the matching features. */
const rate = 100 / DEFAULT_SETTINGS.decimation;

/** A smooth random walk of `frames` frames, like a cepstral trajectory. */
function walk(frames: number, seed: number): Sequence {
  const r = seeded(seed);
  const data = new Float32Array(frames * dims);
  for (let k = 0; k < dims; k++) data[k] = r() * 2 - 1;
  for (let t = 1; t < frames; t++)
    for (let k = 0; k < dims; k++)
      data[t * dims + k] = 0.9 * (data[(t - 1) * dims + k] as number) + 0.3 * (r() * 2 - 1);
  return { frames, dim: dims, data };
}

/** `seq` with every value moved by up to `amount`, and frames `from`..`to` taken from `other`. */
function variant(seq: Sequence, amount: number, seed: number, other?: Sequence, from = 0, to = 0): Sequence {
  const r = seeded(seed);
  const data = Float32Array.from(seq.data, (v) => v + amount * (r() * 2 - 1));
  if (other !== undefined) data.set(other.data.subarray(from * dims, to * dims), from * dims);
  return { ...seq, data };
}

const templateOf = (seq: Sequence) => makeTemplate(seq, 0, DEFAULT_SETTINGS, templateStep([seq]));

describe('align', () => {
  it("leaves a template's soft edges out only for an utterance weighed over a talking room", () => {
    const word = walk(40, 3);
    const edge = TEMPLATE_EDGES.frames;
    // The template holds frames before and after the word that the utterance lacks.
    const held = walk(40 + 2 * edge, 4);
    held.data.set(word.data, edge * dims);
    const template = templateOf(held);
    const heard = prepare(word, DEFAULT_SETTINGS);
    const weighed = prepare({ ...word, weights: new Float32Array(40).fill(1) }, DEFAULT_SETTINGS);
    const ws = new DtwWorkspace();
    const cost = 0.2;
    const plain = align(heard, template, DEFAULT_SETTINGS, ws, Infinity, cost);
    const edges = align(weighed, template, DEFAULT_SETTINGS, ws, Infinity, cost);
    expect(edges).toBeLessThan(plain);
    // Left out, the edges cost their share of the quiet-end cost; the word aligns closely.
    expect(edges).toBeLessThan((2 * edge * cost * TEMPLATE_EDGES.costShare) / (40 + 40 + 2 * edge) + 0.05);
    // Without a quiet-end cost (profiles before format 20) nothing is left out.
    expect(align(weighed, template, DEFAULT_SETTINGS, ws)).toBe(align(heard, template, DEFAULT_SETTINGS, ws));
  });
});

describe('misfit', () => {
  const reference = walk(80, 1);
  const template = templateOf(reference);
  const misfitOf = (query: Sequence): number => misfit(query, template, DEFAULT_SETTINGS) ?? NaN;

  it('is small when an utterance fits its template evenly', () => {
    expect(Math.abs(misfitOf(variant(reference, 0.2, 2)))).toBeLessThan(0.25);
  });

  it('is large when one stretch does not fit at all', () => {
    // A third of a second replaced by something else, as a different word would be.
    const stretch = Math.round(MISFIT_WINDOW * rate);
    const swapped = variant(reference, 0.2, 2, walk(80, 9), 40, 40 + stretch);
    const even = variant(reference, 0.2, 2);
    expect(misfitOf(swapped)).toBeGreaterThan(misfitOf(even) + 0.5);
  });

  it('is large when the utterance leaves out a stretch of the template', () => {
    // The template's second half said alone, as "cold" against an enrolled "I am cold".
    const tail = { frames: 40, dim: dims, data: reference.data.slice(40 * dims) };
    const even = variant(reference, 0.2, 2);
    expect(misfitOf(variant(tail, 0.2, 4))).toBeGreaterThan(misfitOf(even) + 0.5);
  });

  it('leaves out utterances no longer than misfitAbove, and in files before it those no longer than the window', () => {
    const template = templateOf(walk(40, 5));
    const { misfitAbove = NaN, ...before } = DEFAULT_SETTINGS;
    const short = walk(Math.round(misfitAbove * rate), 3);
    expect(misfit(short, template, DEFAULT_SETTINGS)).toBeUndefined();
    expect(misfit(walk(Math.round(misfitAbove * rate) + 1, 3), template, DEFAULT_SETTINGS)).toBeGreaterThan(
      0,
    );
    expect(misfit(short, template, before)).toBeGreaterThan(0);
    expect(misfit(walk(Math.round(MISFIT_WINDOW * rate), 3), template, before)).toBeUndefined();
  });

  it('tells an utterance that shares only its start with an enrolled phrase from a new take of it', () => {
    // Tone phrases 2 and 5 have four words each: the hybrid says phrase 2's first half and
    // phrase 5's second half.
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const profile = trainProfile(
      names.flatMap((text, p) => [0, 1, 2].map((t) => ({ text, audio: take(p, t) }))),
    );
    const own = take(2, 6);
    const other = take(5, 6);
    const hybrid = new Float32Array(own.length + other.length);
    hybrid.set(own.subarray(0, own.length >> 1));
    hybrid.set(other.subarray(other.length >> 1), own.length >> 1);
    const fitTo = (audio: Float32Array, phrase: number): number => {
      const q = prepare(
        whiten(takeFeatures(audio, profile.settings).features, profile.whitening),
        profile.settings,
      );
      return Math.min(
        ...profile.templates
          .filter((t) => t.phrase === phrase)
          .map((t) => misfit(q, t, profile.settings) ?? NaN),
      );
    };
    expect(fitTo(hybrid, 2)).toBeGreaterThan(fitTo(own, 2) + 0.2);
    // The decoder weighs it: the hybrid is less confidently phrase 2 than without the weight.
    const [w0, w1, w2] = profile.calibration.weights;
    const without = {
      ...profile,
      calibration: { weights: [w0, w1, w2] as [number, number, number], threshold: 0.5 },
    };
    const features = takeFeatures(hybrid, profile.settings).features;
    const heard = new Matcher(profile).recognise(features);
    expect(heard.alternatives[0]?.text).toBe('c');
    expect(heard.confidence).toBeLessThan(new Matcher(without).recognise(features).confidence);
  });
});

describe('confidence', () => {
  const match = { distance: 1, scale: 1.2, rival: 1.5 };
  const three = { weights: [-3, -10, -20] as [number, number, number], threshold: 0.5 };
  it('weighs the misfit only when the calibration has a fourth weight', () => {
    const four = { weights: [-3, -10, -20, -6] as [number, number, number, number], threshold: 0.5 };
    expect(confidence(three, { ...match, misfit: 0.8 })).toBe(confidence(three, { ...match, misfit: 0 }));
    expect(confidence(four, { ...match, misfit: 0 })).toBe(confidence(three, match));
    expect(confidence(four, { ...match, misfit: 0.8 })).toBeLessThan(
      confidence(four, { ...match, misfit: 0.2 }),
    );
  });

  it('weighs a misfit against the typical one, and an utterance without one on the other terms alone', () => {
    const typical = {
      ...three,
      weights: [-3, -10, -20, -10] as [number, number, number, number],
      typicalMisfit: 0.25,
    };
    expect(confidence(typical, { ...match, misfit: 0.25 })).toBeCloseTo(confidence(three, match), 12);
    expect(confidence(typical, match)).toBe(confidence(three, match));
    expect(confidence(typical, { ...match, misfit: 0.6 })).toBeLessThan(confidence(three, match));
    expect(confidence(typical, { ...match, misfit: 0.1 })).toBeGreaterThan(confidence(three, match));
    // Format 8 held the typical misfit in its bias: no misfit there counts as 0.
    const folded = { ...three, weights: [-3 + 10 * 0.25, -10, -20, -10] as [number, number, number, number] };
    expect(confidence(folded, match)).toBeGreaterThan(confidence(typical, match));
  });

  it("weighs how far a match lies beyond the spread of its phrase's takes, and nothing within it", () => {
    const beyond = { ...three, beyondRepetition: { above: 0.2, weight: -10 } };
    const near = { ...match, spread: 0.9 }; // log(1 / 0.9) is under 0.2
    const far = { ...match, spread: 0.5 };
    expect(confidence(beyond, near)).toBe(confidence(three, match));
    expect(confidence(beyond, match)).toBe(confidence(three, match));
    expect(confidence(beyond, far)).toBeLessThan(confidence(three, far));
    expect(confidence(three, far)).toBe(confidence(three, match));
  });

  it('leaves a phrase of several words with a misfit to the misfit where the calibration says so', () => {
    const far = { ...match, spread: 0.5 }; // log(1 / 0.5) is past 0.45
    const nearer = { ...three, beyondRepetition: { above: 0.2, weight: -10 } };
    const steeper = { above: 0.45, weight: -80 };
    const format26 = { ...nearer, farBeyondRepetition: steeper };
    const format28 = { ...nearer, farBeyondRepetition: { ...steeper, leavesPhrasesToMisfit: true as const } };
    const phrase = { ...far, words: 3, misfit: 0.1 };
    expect(confidence(format28, phrase)).toBe(confidence(nearer, phrase));
    expect(confidence(format26, phrase)).toBeLessThan(confidence(nearer, phrase));
    // A one-word phrase, an utterance too short for a misfit, or words not known: judged by it.
    for (const e of [
      { ...phrase, words: 1 },
      { ...phrase, misfit: undefined },
      { ...phrase, words: undefined },
    ])
      expect(confidence(format28, e)).toBe(confidence(format26, e));
  });

  it('allows for an utterance that rose over a louder room than the takes did, in proportion', () => {
    const room = { riseDb: 45, fromDb: 8, fullDb: 20, weight: 1 };
    // Within 8 dB of the takes' rise, or heard from a file: nothing.
    expect(loudRoomAllowance(room, 45)).toBe(0);
    expect(loudRoomAllowance(room, 37)).toBe(0);
    expect(loudRoomAllowance(room, undefined)).toBe(0);
    expect(loudRoomAllowance(undefined, 10)).toBe(0);
    // Halfway from 8 to 20 dB less: half; 20 dB less or more: the whole weight.
    expect(loudRoomAllowance(room, 31)).toBeCloseTo(0.5, 12);
    expect(loudRoomAllowance(room, 25)).toBe(1);
    expect(loudRoomAllowance(room, 5)).toBe(1);
    const allowing = { ...three, loudRoom: room };
    expect(confidence(allowing, { ...match, riseDb: 44 })).toBe(confidence(three, match));
    const logit = (c: number): number => Math.log(c / (1 - c));
    expect(
      logit(confidence(allowing, { ...match, riseDb: 20 })) - logit(confidence(three, match)),
    ).toBeCloseTo(1, 9);
  });

  it("allows more for an utterance heard in the person's voice over a room too loud to hear them over", () => {
    const logit = (c: number): number => Math.log(c / (1 - c));
    const room = { riseDb: 45, fromDb: 8, fullDb: 20, weight: 1 };
    const allowing = { ...three, loudRoom: room };
    const over = { ...match, riseDb: 15 };
    expect(
      logit(confidence(allowing, { ...over, byVoice: true })) - logit(confidence(allowing, over)),
    ).toBeCloseTo(VOICE_OVER_ROOM_ALLOWANCE, 9);
    // A profile that does not allow for a loud room at all (one take a phrase) allows nothing.
    expect(confidence(three, { ...over, byVoice: true })).toBe(confidence(three, over));
  });
});

describe('the distance beyond repetition', () => {
  it('rejects unknown phrases that a user of two phrases has no rivals for, and keeps their own', () => {
    const profile = trainProfile(
      ['yes', 'no'].flatMap((text, p) => [0, 1, 2].map((t) => ({ text, audio: take(p, t) }))),
    );
    const { beyondRepetition, farBeyondRepetition: _, ...calibration } = profile.calibration;
    expect(beyondRepetition).toBeDefined();
    const withTerm = new Matcher(profile);
    const withoutTerm = new Matcher({ ...profile, calibration });
    const confidenceOf = (m: Matcher, p: number, t: number): number =>
      m.recognise(takeFeatures(take(p, t), profile.settings).features).confidence;
    // Tone phrases 8 and 10 are like neither enrolled phrase, and with only one other
    // phrase to compare with the relative terms take them for one.
    for (const p of [8, 10]) {
      for (const t of [5, 6]) {
        expect(confidenceOf(withoutTerm, p, t)).toBeGreaterThan(0.5);
        expect(confidenceOf(withTerm, p, t)).toBeLessThan(0.5);
      }
    }
    for (const p of [0, 1]) for (const t of [5, 6]) expect(confidenceOf(withTerm, p, t)).toBeGreaterThan(0.9);
  });

  /** A one-syllable tone word: a short onset at `onsetHz`, then the vowel every such word shares. */
  function syllable(onsetHz: number, takeIndex: number): Float32Array {
    const r = seeded(500 + takeIndex * 13 + onsetHz);
    const tempo = 0.9 + 0.2 * r();
    const shift = 0.95 + 0.1 * r();
    return concat(
      noise(0.4, 0.001, takeIndex + 1),
      word(0.09 * tempo, [150 * shift, 150 * shift], [onsetHz, onsetHz], takeIndex + 3),
      word(0.3 * tempo, [150 * shift, 120 * shift], [700, 1100], takeIndex + 4),
      noise(0.6, 0.001, takeIndex + 9),
    );
  }

  it('rejects a word that differs from an enrolled one in its first sound, as "go" for "no"', () => {
    // "no" among six longer phrases: an unknown word with another onset is far from the
    // six, so the rival term takes it for "no"; only how far it lies beyond the user's own
    // repetitions of "no" tells it apart (docs/decisions/0111).
    const profile = trainProfile([
      ...[0, 1, 2].map((t) => ({ text: 'no', audio: syllable(300, t) })),
      ...[0, 1, 2, 3, 4, 5].flatMap((p) =>
        [0, 1, 2].map((t) => ({ text: `phrase ${p}`, audio: take(p, t) })),
      ),
    ]);
    const matcher = new Matcher(profile);
    const { farBeyondRepetition, ...calibration } = profile.calibration;
    expect(farBeyondRepetition).toBeDefined();
    const before = new Matcher({ ...profile, calibration });
    const heard = (m: Matcher, onsetHz: number, t: number) =>
      m.recognise(takeFeatures(syllable(onsetHz, t), profile.settings).features);
    const unknown = [1500, 2500, 3500].flatMap((hz) => [5, 6, 7].map((t) => [hz, t] as const));
    for (const [hz, t] of unknown) {
      const result = heard(matcher, hz, t);
      expect(result.alternatives[0]?.text).toBe('no');
      expect(result.rejected).toBe(true);
    }
    expect(unknown.some(([hz, t]) => !heard(before, hz, t).rejected)).toBe(true);
    for (const t of [5, 6, 7]) expect(heard(matcher, 300, t).confidence).toBeGreaterThan(0.9);
  }, 30_000);

  it('keeps phrases of several words heard over a noisier room than their takes, which format 26 turned away', () => {
    // A steady speaker's phrases lie as far beyond their repetitions over a room's noise as
    // an unknown word does; the misfit is what tells a phrase with another word in it
    // (docs/decisions/0126).
    const texts = [
      'open the door',
      'turn on the light',
      'a cup of tea',
      'call my son',
      'good night',
      'my glasses',
    ];
    const profile = trainProfile(
      texts.flatMap((text, p) => [0, 1, 2].map((t) => ({ text, audio: take(p, t) }))),
    );
    const { farBeyondRepetition, ...rest } = profile.calibration;
    expect(farBeyondRepetition?.leavesPhrasesToMisfit).toBe(true);
    const { leavesPhrasesToMisfit: _, ...everyPhrase } = farBeyondRepetition ?? { above: 0, weight: 0 };
    const matcher = new Matcher(profile);
    const format26 = new Matcher({ ...profile, calibration: { ...rest, farBeyondRepetition: everyPhrase } });
    const heard = (m: Matcher, audio: Float32Array) =>
      m.recognise(takeFeatures(audio, profile.settings).features);
    for (const [p, text] of texts.entries()) {
      for (const t of [5, 6]) {
        const overRoom = withNoise(take(p, t), 0.03, 70 + p * 2 + t);
        expect(heard(format26, overRoom).rejected).toBe(true);
        // Tone phrases 0 and 3 have two words, too short for a misfit: judged by it still.
        if (p % 3 === 0) expect(heard(matcher, overRoom)).toEqual(heard(format26, overRoom));
        else expect(heard(matcher, overRoom).text).toBe(text);
      }
    }
    // Phrases the user never recorded are turned away as before.
    for (const p of [6, 7, 8, 9, 10, 11])
      for (const t of [5, 6]) expect(heard(matcher, take(p, t)).rejected).toBe(true);
  }, 30_000);
});
