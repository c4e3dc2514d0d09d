import { describe, expect, it } from 'vitest';
import { reloadKindOf, shouldAutoReload } from './reload-policy';

describe('automatic reload', () => {
  it('recognises chunk-load and not-a-function errors', () => {
    expect(reloadKindOf(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(
      'chunk_load',
    );
    expect(reloadKindOf(new Error('Loading chunk 42 failed.'))).toBe('chunk_load');
    expect(reloadKindOf(new TypeError('t.map is not a function'))).toBe('not_a_function');
    expect(reloadKindOf(new Error('Cannot read properties of undefined'))).toBeNull();
  });

  it('reloads at most once per throttle window', () => {
    expect(shouldAutoReload(undefined, 1_000, 60_000)).toBe(true);
    expect(shouldAutoReload(1_000, 30_000, 60_000)).toBe(false);
    expect(shouldAutoReload(1_000, 61_000, 60_000)).toBe(true);
  });
});
