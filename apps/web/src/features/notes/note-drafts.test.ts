import { describe, expect, it } from 'vitest';
import { appendDictation, noteTitle, replaceLastDictation } from './note-drafts';

describe('notes', () => {
  it('appends dictation with one space', () => {
    expect(appendDictation('', 'good morning')).toBe('good morning');
    expect(appendDictation('Dear Sam,', 'good morning')).toBe('Dear Sam, good morning');
    expect(appendDictation('Dear Sam,\n', 'good morning')).toBe('Dear Sam,\ngood morning');
    expect(appendDictation('Dear Sam, ', ' thanks ')).toBe('Dear Sam, thanks');
    expect(appendDictation('Dear Sam', '  ')).toBe('Dear Sam');
  });

  it('puts right the last dictated phrase while the note still ends with it', () => {
    expect(replaceLastDictation('Dear Sam, good morning', 'good morning', 'thank you')).toBe(
      'Dear Sam, thank you',
    );
    expect(replaceLastDictation('good morning', 'good morning', 'thank you')).toBe('thank you');
    expect(replaceLastDictation('Dear Sam,\ngood morning', 'good morning', 'thanks')).toBe(
      'Dear Sam,\nthanks',
    );
    // Taken out, with the space dictation put before it.
    expect(replaceLastDictation('Dear Sam, good morning', 'good morning', '')).toBe('Dear Sam,');
    expect(replaceLastDictation('good morning', ' good morning ', '')).toBe('');
    // Written on since, or the phrase only the end of a word: left alone.
    expect(replaceLastDictation('good morning, Sam', 'good morning', 'thanks')).toBeNull();
    expect(replaceLastDictation('Dear Sam, notgood morning', 'good morning', 'thanks')).toBeNull();
    expect(replaceLastDictation('Dear Sam', '', 'thanks')).toBeNull();
  });

  it('titles a note by its first line', () => {
    expect(noteTitle('  Shopping\nmilk')).toBe('Shopping');
    expect(noteTitle('a'.repeat(80), 10)).toBe('aaaaaaaaa…');
  });
});
