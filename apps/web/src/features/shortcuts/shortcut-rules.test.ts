import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../lib/api-error';
import {
  SHORTCUT_INPUT_MAX,
  SHORTCUT_OUTPUT_MAX,
  checkShortcutInput,
  checkShortcutOutput,
  findInputConflict,
  isInputConflict,
} from './shortcut-rules';

const shortcuts = [
  { id: 'a', input: 'Coffee', output: 'Could I have a coffee with milk, please?' },
  { id: 'b', input: 'home', output: 'Please take me home.' },
];

describe('shortcut input uniqueness', () => {
  it('finds another shortcut with the same input, ignoring case and outer spaces', () => {
    expect(findInputConflict('coffee', shortcuts)?.id).toBe('a');
    expect(findInputConflict('  HOME ', shortcuts)?.id).toBe('b');
    expect(findInputConflict('tea', shortcuts)).toBeUndefined();
    // Inner words must match as they are.
    expect(findInputConflict('coffee please', shortcuts)).toBeUndefined();
  });

  it('lets an edited shortcut keep its own input, but not take another one', () => {
    expect(findInputConflict('COFFEE', shortcuts, 'a')).toBeUndefined();
    expect(findInputConflict('Home', shortcuts, 'a')?.id).toBe('b');
  });

  it('never reports an empty input as a conflict', () => {
    expect(findInputConflict('   ', [{ id: 'x', input: ' ', output: 'y' }])).toBeUndefined();
  });
});

describe('shortcut form checks', () => {
  it('names what is wrong with an input', () => {
    expect(checkShortcutInput('  ', shortcuts)).toBe('empty');
    expect(checkShortcutInput('x'.repeat(SHORTCUT_INPUT_MAX + 1), shortcuts)).toBe('too_long');
    expect(checkShortcutInput(` ${'x'.repeat(SHORTCUT_INPUT_MAX)} `, shortcuts)).toBeNull();
    expect(checkShortcutInput('cOFFEE', shortcuts)).toBe('taken');
    expect(checkShortcutInput('cOFFEE', shortcuts, 'a')).toBeNull();
    expect(checkShortcutInput('tea', [])).toBeNull();
  });

  it('names what is wrong with an output', () => {
    expect(SHORTCUT_INPUT_MAX).toBe(100);
    expect(SHORTCUT_OUTPUT_MAX).toBe(2000);
    expect(checkShortcutOutput('\n ')).toBe('empty');
    expect(checkShortcutOutput('y'.repeat(SHORTCUT_OUTPUT_MAX + 1))).toBe('too_long');
    expect(checkShortcutOutput('A cup of tea, please.')).toBeNull();
  });

  it('treats only the server’s 409 as a taken input', () => {
    expect(isInputConflict(new ApiError(409, 'Shortcut with this input already exists'))).toBe(true);
    expect(isInputConflict(new ApiError(400, 'input should not be empty'))).toBe(false);
    expect(isInputConflict(new NetworkError())).toBe(false);
  });
});
