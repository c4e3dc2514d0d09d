import type { SoundSwallowerModule } from 'soundswallower';
import { normaliseText } from '../model/profile.js';

/** One pronunciation in the dictionary's own form: `word` or `word(2)`…, and its phones. */
export type LexiconEntry = [name: string, phones: string];

/**
 * The model's pronunciation dictionary, read once, so that an engine is taught only the words
 * it is to say instead of parsing all 135,000 each time one loads: that parse was most of
 * loading an engine (300-370 ms in all in Node, 45-160 ms without it, and 6 MB of the
 * module's memory instead of 23), and each retrain loads five.
 */
export class Lexicon {
  /** Where each word's lines start in {@link text}, its first before its alternates. */
  private readonly lines = new Map<string, number[]>();
  private text = '';

  /** `text`: a dictionary in CMUdict's form, a word and its phones a line (`;;` comments). */
  constructor(text: string) {
    this.read(text, () => true);
  }

  /** A lexicon of these entries alone: the words of a person's phrases, as a browser is sent them. */
  static of(entries: readonly LexiconEntry[]): Lexicon {
    const lexicon = new Lexicon('');
    lexicon.add(entries);
    return lexicon;
  }

  /** Adds the pronunciations of words it does not know yet; those of words it knows are left out. */
  add(entries: readonly LexiconEntry[]): void {
    // A word's alternates come after its first line: words first met in these entries stay wanted.
    const learnt = new Set<string>();
    this.read(entries.map(([name, phones]) => `${name} ${phones}`).join('\n'), (word) => {
      if (learnt.has(word)) return true;
      if (this.lines.has(word)) return false;
      learnt.add(word);
      return true;
    });
  }

  /** Indexes the lines of `text` whose word is `wanted`, appended to what it holds. */
  private read(text: string, wanted: (word: string) => boolean): void {
    const from = this.text.length === 0 ? 0 : this.text.length + 1;
    this.text = this.text.length === 0 ? text : `${this.text}\n${text}`;
    const all = this.text;
    // Only the words are read now: half the time and memory of reading every line whole.
    for (let at = from; at < all.length;) {
      const end = lineEnd(all, at);
      const space = nameEnd(all, at, end);
      if (space > at && space < end && !all.startsWith(';;', at)) {
        // Alternates name their word: `read(2)` is another way to say `read`.
        const name = all.slice(at, space);
        const word = name.endsWith(')') ? name.replace(/\(\d+\)$/, '') : name;
        if (wanted(word)) {
          const starts = this.lines.get(word);
          if (starts === undefined) this.lines.set(word, [at]);
          else starts.push(at);
        }
      }
      at = end + 1;
    }
  }

  has(word: string): boolean {
    return this.lines.has(word);
  }

  /** Every pronunciation of `word`, its first before its alternates; empty for an unknown word. */
  entriesOf(word: string): LexiconEntry[] {
    return (this.lines.get(word) ?? []).map((at) => {
      const end = lineEnd(this.text, at);
      const space = nameEnd(this.text, at, end);
      return [this.text.slice(at, space), this.text.slice(space, end).trim()];
    });
  }

  /** Every pronunciation of the words of `texts` (as an engine is taught them), each word once. */
  pronunciationsOf(texts: readonly string[]): LexiconEntry[] {
    return wordsOf(texts).flatMap((word) => this.entriesOf(word));
  }
}

/** The words of `texts` as the engine says them (normalised), each once. */
export function wordsOf(texts: readonly string[]): string[] {
  const words = new Set(texts.flatMap((text) => normaliseText(text).split(' ')));
  words.delete('');
  return [...words];
}

function lineEnd(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end === -1 ? text.length : end;
}

/** Where the name on the line from `at` to `end` ends: at its first space or tab. */
function nameEnd(text: string, at: number, end: number): number {
  let i = at;
  while (i < end && text[i] !== ' ' && text[i] !== '\t') i++;
  return i;
}

const lexicons = new WeakMap<SoundSwallowerModule, Lexicon>();

/**
 * Engines of `module` load without the model's dictionary from now on, and are taught each
 * word of their phrases from `lexicon` (which must be that dictionary) as they need it.
 */
export function teachFromLexicon(module: SoundSwallowerModule, lexicon: Lexicon): void {
  lexicons.set(module, lexicon);
}

/** The lexicon engines of `module` are taught from, if one was given. */
export function lexiconOf(module: SoundSwallowerModule): Lexicon | undefined {
  return lexicons.get(module);
}
