import { describe, expect, it } from 'vitest';
import { keyboardActionFor, keyboardActions, type KeyPress } from './app-activity';

const press = (overrides: Partial<KeyPress>): KeyPress => ({
  key: ' ',
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  repeat: false,
  defaultPrevented: false,
  onInteractiveElement: false,
  ...overrides,
});

describe('global keys', () => {
  const on = { enabled: true, requireCtrl: false };
  const ctrlMode = { enabled: true, requireCtrl: true };

  it('maps Space and Return to their actions when hands-free keys are on', () => {
    expect(keyboardActionFor(press({ key: ' ' }), on)).toBe('space');
    expect(keyboardActionFor(press({ key: 'Enter' }), on)).toBe('enter');
    expect(keyboardActionFor(press({ key: 'a' }), on)).toBeNull();
  });

  it('does nothing when they are off (the default)', () => {
    expect(keyboardActionFor(press({}), undefined)).toBeNull();
    expect(keyboardActionFor(press({}), { enabled: false, requireCtrl: false })).toBeNull();
  });

  it('leaves keys on fields and controls alone, unless Ctrl is the mode', () => {
    expect(keyboardActionFor(press({ onInteractiveElement: true }), on)).toBeNull();
    expect(keyboardActionFor(press({ onInteractiveElement: true, ctrlKey: true }), ctrlMode)).toBe('space');
  });

  it('in the additional mode needs Ctrl, and then only with Ctrl', () => {
    expect(keyboardActionFor(press({}), ctrlMode)).toBeNull();
    expect(keyboardActionFor(press({ key: 'Enter', ctrlKey: true }), ctrlMode)).toBe('enter');
    expect(keyboardActionFor(press({ ctrlKey: true }), on)).toBeNull();
  });

  it('ignores repeats and handled events', () => {
    expect(keyboardActionFor(press({ repeat: true }), on)).toBeNull();
    expect(keyboardActionFor(press({ defaultPrevented: true }), on)).toBeNull();
  });

  it('dispatches to the newest handler of a key', () => {
    const calls: string[] = [];
    const first = keyboardActions.register('space', () => calls.push('first'));
    const second = keyboardActions.register('space', () => calls.push('second'));
    expect(keyboardActions.dispatch('space')).toBe(true);
    second();
    keyboardActions.dispatch('space');
    first();
    expect(keyboardActions.dispatch('space')).toBe(false);
    expect(calls).toEqual(['second', 'first']);
  });
});
