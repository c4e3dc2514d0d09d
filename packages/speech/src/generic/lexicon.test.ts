import { describe, expect, it } from 'vitest';
import { Lexicon, wordsOf } from './lexicon.js';

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

  it("gives the pronunciations of a person's phrases, each word once, as a browser is sent them", () => {
    const lexicon = new Lexicon(
      ['read R EH D', 'read(2) R IY D', 'a AH', 'a(2) EY', 'book B UH K'].join('\n'),
    );
    expect(wordsOf(['Read a book!', 'a book', ''])).toEqual(['read', 'a', 'book']);
    expect(lexicon.pronunciationsOf(['Read a book!', 'a zorblax'])).toEqual([
      ['read', 'R EH D'],
      ['read(2)', 'R IY D'],
      ['a', 'AH'],
      ['a(2)', 'EY'],
      ['book', 'B UH K'],
    ]);
  });

  it('is made from sent pronunciations, and learns only the words it does not know', () => {
    const lexicon = Lexicon.of([
      ['read', 'R EH D'],
      ['read(2)', 'R IY D'],
    ]);
    expect(lexicon.entriesOf('read')).toEqual([
      ['read', 'R EH D'],
      ['read(2)', 'R IY D'],
    ]);
    // Sent again with a phrase added: the new word is learnt, the known one not twice.
    lexicon.add([
      ['read', 'R EH D'],
      ['read(2)', 'R IY D'],
      ['book', 'B UH K'],
    ]);
    expect(lexicon.entriesOf('read')).toHaveLength(2);
    expect(lexicon.entriesOf('book')).toEqual([['book', 'B UH K']]);
    expect(Lexicon.of([]).has('read')).toBe(false);
  });
});
