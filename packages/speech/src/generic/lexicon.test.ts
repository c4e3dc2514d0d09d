import { describe, expect, it } from 'vitest';
import { Lexicon } from './lexicon.js';

describe('Lexicon', () => {
  it('gives each word its pronunciations, the first before its alternates', () => {
    const lexicon = new Lexicon(
      [
        ';; a dictionary',
        'read R EH D',
        'read(2) R IY D',
        'the DH AH',
        'the(2)  DH IY',
        "'bout B AW T",
        '',
      ].join('\n'),
    );
    expect(lexicon.entriesOf('read')).toEqual([
      ['read', 'R EH D'],
      ['read(2)', 'R IY D'],
    ]);
    expect(lexicon.entriesOf('the')).toEqual([
      ['the', 'DH AH'],
      ['the(2)', 'DH IY'],
    ]);
    expect(lexicon.has("'bout")).toBe(true);
    expect(lexicon.has(';;')).toBe(false);
    expect(lexicon.has('zorblax')).toBe(false);
    expect(lexicon.entriesOf('zorblax')).toEqual([]);
  });
});
