import { BUILT_MODEL_TYPES as CONTRACT_BUILT_MODEL_TYPES } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import {
  BUILT_MODEL_TYPES,
  afterLoginTarget,
  isAllowedWhenLocked,
  isModelBuilt,
  isSafeInternalPath,
  launcherTarget,
} from './redirects';

describe('launcher redirects', () => {
  it('with a built model: last tab, else the saved mode, else the mode picker', () => {
    expect(launcherTarget({ modelBuilt: true, lastOpenedTab: '/dictate', recognitionMode: 'speak' })).toBe(
      '/dictate',
    );
    expect(launcherTarget({ modelBuilt: true, lastOpenedTab: undefined, recognitionMode: 'speak' })).toBe(
      '/speak',
    );
    expect(launcherTarget({ modelBuilt: true, lastOpenedTab: undefined, recognitionMode: 'dictate' })).toBe(
      '/dictate',
    );
    expect(launcherTarget({ modelBuilt: true, lastOpenedTab: undefined, recognitionMode: undefined })).toBe(
      '/mode_picker',
    );
  });

  it('without a model: last tab, else /record', () => {
    expect(launcherTarget({ modelBuilt: false, lastOpenedTab: '/speak', recognitionMode: 'dictate' })).toBe(
      '/speak',
    );
    expect(launcherTarget({ modelBuilt: false, lastOpenedTab: undefined, recognitionMode: 'dictate' })).toBe(
      '/record',
    );
  });

  it('ignores a stored tab that would leave the app', () => {
    expect(
      launcherTarget({ modelBuilt: false, lastOpenedTab: '//evil.example', recognitionMode: undefined }),
    ).toBe('/record');
  });

  it('uses the same built model types as the contract', () => {
    expect(BUILT_MODEL_TYPES).toEqual(CONTRACT_BUILT_MODEL_TYPES);
  });

  it('counts only acoustic model types as built', () => {
    expect(isModelBuilt([{ type: 'language' }])).toBe(false);
    expect(isModelBuilt([{ type: 'language' }, { type: 'acoustic_icefall_pts7s' }])).toBe(true);
    expect(isModelBuilt([{ type: 'acoustic_phoneme' }])).toBe(true);
    expect(isModelBuilt([])).toBe(false);
  });
});

describe('after login', () => {
  it('returns to login_redirect when it is a path of the app', () => {
    expect(afterLoginTarget('/settings/audio?x=1', 'speak')).toBe('/settings/audio?x=1');
    expect(afterLoginTarget('https://evil.example/', 'speak')).toBe('/speak');
    expect(afterLoginTarget('/login?login_redirect=/x', undefined)).toBe('/');
  });

  it('otherwise goes to the page of the saved mode, or the launcher', () => {
    expect(afterLoginTarget(null, 'dictate')).toBe('/dictate');
    expect(afterLoginTarget(null, undefined)).toBe('/');
  });
});

describe('locked subscription', () => {
  it('allows only /, /menu and /subscription', () => {
    expect(['/', '/menu', '/menu/', '/subscription'].every(isAllowedWhenLocked)).toBe(true);
    expect(['/speak', '/record', '/settings/general', '/menus'].some(isAllowedWhenLocked)).toBe(false);
  });
});

describe('internal paths', () => {
  it('accepts one leading slash only', () => {
    expect(isSafeInternalPath('/record')).toBe(true);
    expect(isSafeInternalPath('//host/x')).toBe(false);
    expect(isSafeInternalPath('/\\host')).toBe(false);
    expect(isSafeInternalPath('javascript:alert(1)')).toBe(false);
  });
});
