const KEY = 'parla.noteDrafts';

type Drafts = Record<string, { text: string; at: number }>;

function read(): Drafts {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Drafts) : {};
  } catch {
    return {};
  }
}

function write(drafts: Drafts) {
  try {
    if (Object.keys(drafts).length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(drafts));
  } catch {
    // Storage full or refused: the text stays in the page until it is saved.
  }
}

/**
 * Note text not yet saved on the server, kept in this browser until a save succeeds, so
 * nothing dictated is lost to a dropped connection or a closed tab.
 */
export const noteDrafts = {
  get(id: string): string | undefined {
    return read()[id]?.text;
  },
  set(id: string, text: string) {
    write({ ...read(), [id]: { text, at: Date.now() } });
  },
  /** The server has `savedText`: forget the draft unless it changed meanwhile. */
  saved(id: string, savedText: string) {
    const drafts = read();
    if (drafts[id] && drafts[id].text !== savedText) return;
    const { [id]: _saved, ...rest } = drafts;
    write(rest);
  },
  remove(id: string) {
    const { [id]: _removed, ...rest } = read();
    write(rest);
  },
};

/** Dictated text added to a note: after a space unless the note is empty or already ends in one. */
export function appendDictation(note: string, text: string): string {
  const addition = text.trim();
  if (!addition) return note;
  if (note.length === 0 || /\s$/.test(note)) return note + addition;
  return `${note} ${addition}`;
}

/**
 * A note with its last dictated phrase `dictated` put right: replaced by `replacement`, or
 * taken out with the space dictation put before it when `replacement` is empty. Null when
 * the note no longer ends with that phrase: the person has written on since, and what they
 * wrote is not touched.
 */
export function replaceLastDictation(note: string, dictated: string, replacement: string): string | null {
  const last = dictated.trim();
  if (!last || !note.endsWith(last)) return null;
  const before = note.slice(0, note.length - last.length);
  if (before.length > 0 && !/\s$/.test(before)) return null;
  return replacement.trim() ? appendDictation(before, replacement) : before.replace(/ $/, '');
}

/** A note's title in lists: its first line, shortened. */
export function noteTitle(text: string, max = 60): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
