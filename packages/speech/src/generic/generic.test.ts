import { describe, expect, it } from 'vitest';
import { loadSoundSwallower } from '../platform/soundswallower.node.js';
import { DIGITS, fsddRecording, haveFsdd } from '../test/fsdd.node.js';
import { CHUNK_SAMPLES } from '../units.js';
import { GenericRecogniser, GenericStream, phraseGrammar } from './generic.js';
import { lexiconOf } from './lexicon.js';

describe('phraseGrammar', () => {
  it('covers phrases whose words are all known and lists the others', () => {
    const known = new Set(['turn', 'on', 'the', 'light', 'yes']);
    const g = phraseGrammar(['Turn on the light!', 'Yes', 'Zorblax now'], (w) => known.has(w));
    expect([...g.covered.keys()]).toEqual(['turn on the light', 'yes']);
    expect(g.uncovered).toEqual(['Zorblax now']);
    expect(g.jsgf).toContain('public <phrase> = ( turn on the light ) | ( yes );');
  });

  it('puts a loop of single phones beside the phrases when asked, with its weights', () => {
    const g = phraseGrammar(['Yes', 'No'], () => true, { phoneLoopWeight: '1e-15', phoneLoopGoesOn: '0.3' });
    expect(g.jsgf).toContain('public <phrase> = /1/ ( yes ) | /1/ ( no ) | /1e-15/ <phones>;');
    expect(g.jsgf).toContain('<phones> = /1/ <phone> | /0.3/ <phone> <phones>;');
    expect(g.jsgf).toMatch(/<phone> = \( zzphaa \| zzphae \| .* \| zzphzh \);/);
    // Without a weight for going on, one more phone weighs as much as stopping.
    expect(phraseGrammar(['Yes'], () => true, { phoneLoopWeight: '1e-15' }).jsgf).toContain(
      '<phones> = /1/ <phone> | /1/ <phone> <phones>;',
    );
    expect(phraseGrammar([], () => true, { phoneLoopWeight: '1e-15' }).jsgf).toBe('');
  });
});

describe.skipIf(!haveFsdd)('GenericRecogniser', () => {
  it('recognises clear digits through the streaming interface', async () => {
    const module = await loadSoundSwallower();
    const recogniser = await GenericRecogniser.create(module, DIGITS);
    let right = 0;
    for (const d of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      const audio = fsddRecording(d, 'jackson', 7);
      const stream = new GenericStream(recogniser);
      const results = [];
      for (let i = 0; i < audio.length; i += CHUNK_SAMPLES)
        results.push(...stream.push(audio.subarray(i, i + CHUNK_SAMPLES)));
      results.push(...stream.end());
      if (results[0]?.text === DIGITS[d]) right++;
    }
    // The generic engine is a baseline, not the product: most clear digits are enough.
    expect(right).toBeGreaterThanOrEqual(7);
    recogniser.delete();
  }, 30_000);

  it('taught its words from the lexicon, hears and aligns as an engine that read the whole dictionary does', async () => {
    const taught = await loadSoundSwallower();
    const whole = await loadSoundSwallower({ wholeDictionary: true });
    expect(lexiconOf(taught)).toBeDefined();
    expect(lexiconOf(whole)).toBeUndefined();
    // Words with alternates ("read", "the", "tomato"), and one no dictionary has.
    const phrases = [...DIGITS, 'Read the tomato', 'Zorblax now'];
    const options = { phoneLoopWeight: '1e-15' };
    const engines = [
      await GenericRecogniser.create(taught, phrases, options),
      await GenericRecogniser.create(whole, phrases, options),
    ];
    try {
      const heard = engines.map((engine) => {
        const answers = [];
        for (const [digit, take] of [
          [6, 8],
          [2, 9],
          [8, 8],
          [3, 9],
        ] as const) {
          for (const speaker of ['jackson', 'nicolas']) {
            engine.start();
            engine.process(fsddRecording(digit, speaker, take));
            answers.push(engine.finish());
          }
        }
        return {
          answers,
          uncovered: engine.grammar.uncovered,
          aligned: engine.alignPhones('six', fsddRecording(6, 'theo', 8)),
        };
      });
      expect(heard[0]?.uncovered).toEqual(['Zorblax now']);
      expect(heard[0]).toEqual(heard[1]);
      expect(heard[0]?.aligned?.spans.map((span) => span.phone)).toEqual(['S', 'IH', 'K', 'S']);
    } finally {
      for (const engine of engines) engine.delete();
    }
  }, 30_000);
});
