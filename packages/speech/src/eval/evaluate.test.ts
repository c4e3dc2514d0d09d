import { describe, expect, it } from 'vitest';
import { take } from '../test/phrases.js';
import { evaluate, personalFactory, type LoadedItem } from './evaluate.js';

const names = ['yes', 'no', 'help me', 'water please'];
const item = (p: number, t: number): LoadedItem => ({
  text: names[p] ?? '',
  speaker: 'tone',
  audio: take(p, t),
});
const enrol = names.flatMap((_, p) => [0, 1, 2].map((t) => item(p, t)));
const test = names.flatMap((_, p) => [5, 6, 7].map((t) => item(p, t)));

describe('evaluate', () => {
  it('decodes every test item once, in manifest order or, when adapting, in a fixed shuffled order', async () => {
    const plain = await evaluate(enrol, test, personalFactory());
    expect(plain.decisions.map((d) => d.reference)).toEqual(test.map((t) => t.text));
    const adapted = await evaluate(enrol, test, personalFactory(), { adapt: true });
    const order = adapted.decisions.map((d) => d.reference);
    expect([...order].sort()).toEqual(test.map((t) => t.text).sort());
    expect(order).not.toEqual(test.map((t) => t.text));
    const again = await evaluate(enrol, test, personalFactory(), { adapt: true });
    expect(again.decisions.map((d) => d.reference)).toEqual(order);
    expect(adapted.overall.accuracy).toBeGreaterThanOrEqual(plain.overall.accuracy);
  });

  it('tells the recogniser about right answers only when adapting', async () => {
    const confirmed: string[] = [];
    const factory = personalFactory();
    const spy: typeof factory = async (items) => {
      const built = await factory(items);
      const inner = built.recogniser;
      return {
        ...built,
        recogniser: {
          run: (audio) => inner.run(audio),
          confirm: (text, audio) => {
            confirmed.push(text);
            inner.confirm?.(text, audio);
          },
        },
      };
    };
    await evaluate(enrol, test, spy);
    expect(confirmed).toEqual([]);
    const { decisions } = await evaluate(enrol, test, spy, { adapt: true });
    expect(confirmed).toHaveLength(decisions.filter((d) => d.hypothesis === d.reference).length);
  });
});
