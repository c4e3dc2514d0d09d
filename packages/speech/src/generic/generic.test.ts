import { describe, expect, it } from 'vitest';
import { loadSoundSwallower } from '../platform/soundswallower.node.js';
import { DIGITS, fsddRecording, haveFsdd } from '../test/fsdd.node.js';
import { CHUNK_SAMPLES } from '../units.js';
import { GenericRecogniser, GenericStream, phraseGrammar } from './generic.js';

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
});
