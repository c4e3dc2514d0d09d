import { DEFAULT_LAST_TAB } from '@parla/contract';
import { LOCKED_SUBSCRIPTION_ALLOWED, paths } from '../config/paths';
import type { RecognitionMode } from './browser-state';

/** Model types whose presence means the personal acoustic model is built (spec section 4); the contract's list, kept equal by a test. */
export const BUILT_MODEL_TYPES = ['acoustic_phoneme', 'acoustic', 'acoustic_icefall_pts7s'] as const;

export function isModelBuilt(models: readonly { type: string }[]): boolean {
  return models.some((model) => (BUILT_MODEL_TYPES as readonly string[]).includes(model.type));
}

export function modePath(mode: RecognitionMode): string {
  return mode === 'speak' ? paths.speak.path : paths.dictate.path;
}

/** Where the launcher `/` sends the user (spec section 2). */
export function launcherTarget(input: {
  modelBuilt: boolean;
  lastOpenedTab: string | undefined;
  recognitionMode: RecognitionMode | undefined;
}): string {
  if (input.lastOpenedTab && isSafeInternalPath(input.lastOpenedTab)) return input.lastOpenedTab;
  if (!input.modelBuilt) return DEFAULT_LAST_TAB;
  return input.recognitionMode ? modePath(input.recognitionMode) : paths.modePicker.path;
}

/** Where a fresh login goes: back to login_redirect, else the page of the saved mode, else the launcher. */
export function afterLoginTarget(
  loginRedirect: string | null,
  recognitionMode: RecognitionMode | undefined,
): string {
  if (loginRedirect && isSafeInternalPath(loginRedirect) && !loginRedirect.startsWith(paths.login.path)) {
    return loginRedirect;
  }
  return recognitionMode ? modePath(recognitionMode) : paths.launcher.path;
}

/** True for a path of this app: starts with one slash, so it cannot leave the origin. */
export function isSafeInternalPath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');
}

/** Whether a locked subscription may open this path. */
export function isAllowedWhenLocked(pathname: string): boolean {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (LOCKED_SUBSCRIPTION_ALLOWED as readonly string[]).includes(trimmed);
}

/** Tabs worth returning to from the launcher: the main app pages, not settings or dialogs. */
export function isRememberedTab(pathname: string): boolean {
  return [paths.speak.path, paths.dictate.path, paths.record.path].some(
    (tab) => pathname === tab || pathname.startsWith(`${tab}/`),
  );
}
