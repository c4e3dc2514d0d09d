import type { ShortcutPhrase } from '@parla/contract';

/** A recognised text equal (ignoring case and outer spaces) to a shortcut's input becomes its output. */
export function expandShortcut(text: string, shortcuts: readonly ShortcutPhrase[] | undefined): string {
  const key = text.trim().toLocaleLowerCase();
  const match = shortcuts?.find((shortcut) => shortcut.input.trim().toLocaleLowerCase() === key);
  return match ? match.output : text;
}
