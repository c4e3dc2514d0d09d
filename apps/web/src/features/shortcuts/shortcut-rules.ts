import { ShortcutPhraseInputSchema, type ShortcutPhrase } from '@parla/contract';
import { normalizeError } from '../../lib/api-error';

/** Longest input and output the server accepts (from the contract's schema). */
export const SHORTCUT_INPUT_MAX = ShortcutPhraseInputSchema.shape.input.maxLength ?? 100;
export const SHORTCUT_OUTPUT_MAX = ShortcutPhraseInputSchema.shape.output.maxLength ?? 2000;

/** How inputs are compared: outer spaces and case do not count (spec section 5). */
export function shortcutKey(input: string): string {
  return input.trim().toLocaleLowerCase();
}

/**
 * The shortcut that already has this input, other than the one being edited (`exceptId`);
 * undefined when the input is free.
 */
export function findInputConflict(
  input: string,
  shortcuts: readonly ShortcutPhrase[],
  exceptId?: string,
): ShortcutPhrase | undefined {
  const key = shortcutKey(input);
  if (!key) return undefined;
  return shortcuts.find((shortcut) => shortcut.id !== exceptId && shortcutKey(shortcut.input) === key);
}

export type ShortcutFieldProblem = 'empty' | 'too_long' | 'taken';

/** What is wrong with an input, if anything: empty, too long or already another shortcut's. */
export function checkShortcutInput(
  input: string,
  shortcuts: readonly ShortcutPhrase[],
  exceptId?: string,
): ShortcutFieldProblem | null {
  const trimmed = input.trim();
  if (!trimmed) return 'empty';
  if (trimmed.length > SHORTCUT_INPUT_MAX) return 'too_long';
  return findInputConflict(trimmed, shortcuts, exceptId) ? 'taken' : null;
}

/** What is wrong with an output, if anything. */
export function checkShortcutOutput(output: string): Exclude<ShortcutFieldProblem, 'taken'> | null {
  const trimmed = output.trim();
  if (!trimmed) return 'empty';
  return trimmed.length > SHORTCUT_OUTPUT_MAX ? 'too_long' : null;
}

/** A failed save that means "this input is taken": the server's HTTP 409. */
export function isInputConflict(error: unknown): boolean {
  return normalizeError(error).status === 409;
}
