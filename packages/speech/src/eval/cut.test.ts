import { describe, expect, it } from 'vitest';
import {
  figuresAt,
  houseRuleBias,
  margin,
  meanAccuracy,
  setLimit,
  type CutRule,
  type TuningRun,
} from './cut.js';

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** A decision decoded at bias -4 whose logit without the bias is `m`. */
const decided = (speaker: string, reference: string, top: string, m: number, inVocabulary = true) => ({
  speaker,
  reference,
  inVocabulary,
  top,
  confidence: sigmoid(m - 4),
});

const run = (rule: CutRule, decisions: TuningRun['decisions'], ruled = true): TuningRun => ({
  name: rule,
  rule,
  ruled,
  bias: -4,
  decisions,
});

describe('the house rule replayed over decisions', () => {
  it('takes the bias back out of a confidence', () => {
    expect(margin(sigmoid(1.5 - 4), -4)).toBeCloseTo(1.5, 9);
  });

  it('lets one unknown digit through on an FSDD set and no second', () => {
    const fsdd = run('at-most-one', [
      decided('a', 'eight', 'one', 4.5, false),
      decided('a', 'nine', 'two', 3.8, false),
      decided('b', 'nine', 'two', 3.2, false),
      decided('a', 'one', 'one', 5),
    ]);
    // The second highest unknown (3.8) must stay below the cut: bias < -3.8.
    expect(houseRuleBias([fsdd])).toBe(-3.81);
    const f = figuresAt(fsdd, -3.81);
    expect(f.falseAccepts).toBeCloseTo(1 / 3, 9);
    expect(f.usersOver5).toBe(1);
    expect(f.usersWithUnknown).toBe(2);
  });

  it('holds a synthetic set strictly under 5 %', () => {
    // Twenty unknown items: one accepted would already be 5 %, so none may be.
    const unknown = Array.from({ length: 20 }, (_, i) => decided('s', 'x', 'hello', 3 - i * 0.1, false));
    expect(houseRuleBias([run('under-5-percent', unknown)])).toBe(-3.01);
    // Forty: one of them (2.5 %) may be, the second (5 %) not.
    const more = Array.from({ length: 40 }, (_, i) => decided('s', 'x', 'hello', 3 - i * 0.05, false));
    expect(houseRuleBias([run('under-5-percent', more)])).toBe(-2.96);
  });

  it('takes the strictest set, and ignores sets without a rule', () => {
    const loose = run('at-most-one', [
      decided('a', 'x', 'one', 1, false),
      decided('a', 'x', 'one', 0.5, false),
    ]);
    const strict = run('at-most-one', [
      decided('a', 'x', 'one', 3, false),
      decided('a', 'x', 'one', 2, false),
    ]);
    const free = run('none', [decided('a', 'one', 'one', 9)]);
    expect(houseRuleBias([loose, strict, free])).toBe(-2.01);
    expect([loose, strict, free].map(setLimit)).toEqual([-0.51, -2.01, undefined]);
    // A watched set shows its own limit but does not bind.
    expect(houseRuleBias([loose, { ...strict, ruled: false }])).toBe(-0.51);
    expect(houseRuleBias([free])).toBeUndefined();
  });

  it('counts a known item right only when its top phrase is accepted, and top-1 regardless', () => {
    const set = run('none', [
      decided('a', 'One.', 'one', 5),
      decided('a', 'two', 'two', 3),
      decided('a', 'three', 'eight', 6),
      { speaker: 'a', reference: 'four', inVocabulary: true, top: null, confidence: 0 },
    ]);
    expect(figuresAt(set, -4)).toMatchObject({ accuracy: 0.25, top1: 0.5, falseAccepts: 0 });
    expect(figuresAt(set, -2)).toMatchObject({ accuracy: 0.5, top1: 0.5 });
  });

  it('averages accuracy over the sets that count only', () => {
    const counted = run('none', [decided('a', 'one', 'one', 5), decided('a', 'two', 'one', 5)]);
    const watched = run('none', [decided('a', 'one', 'two', 5)], false);
    expect(meanAccuracy([counted, watched], -4)).toBe(0.5);
  });
});
