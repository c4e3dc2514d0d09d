import { describe, expect, it } from 'vitest';
import { appendDictation, noteTitle } from './note-drafts';

describe('notes', () => {
  it('appends dictation with one space', () => {
    expect(appendDictation('', 'good morning')).toBe('good morning');
    expect(appendDictation('Dear Sam,', 'good morning')).toBe('Dear Sam, good morning');
    expect(appendDictation('Dear Sam,\n', 'good morning')).toBe('Dear Sam,\ngood morning');
    expect(appendDictation('Dear Sam, ', ' thanks ')).toBe('Dear Sam, thanks');
    expect(appendDictation('Dear Sam', '  ')).toBe('Dear Sam');
  });

  it('titles a note by its first line', () => {
    expect(noteTitle('  Shopping\nmilk')).toBe('Shopping');
    expect(noteTitle('a'.repeat(80), 10)).toBe('aaaaaaaaa…');
  });
});
