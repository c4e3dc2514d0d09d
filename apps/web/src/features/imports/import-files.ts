import type { IMPORT_SOURCES } from '@parla/contract';

/** Where imported recordings come from (`info.source` of the import). */
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** Audio the server decodes (docs/imports.md), by file extension. */
export const AUDIO_EXTENSIONS = [
  'wav',
  'm4a',
  'caf',
  'mp3',
  'ogg',
  'oga',
  'opus',
  'webm',
  'flac',
  'aiff',
  'aif',
  'amr',
] as const;

const TRANSCRIPT_FILE = /^transcripts?\.(csv|tsv|txt)$/i;

/** The file picker's `accept`: audio, a zip, and a transcripts file. */
export const ACCEPTED_FILES = [...AUDIO_EXTENSIONS, 'zip', 'csv', 'tsv', 'txt']
  .map((extension) => `.${extension}`)
  .join(',');

/** Most loose audio files one import may carry (the server refuses more). */
export const MAX_AUDIO_FILES = 200;
/** Largest zip the server takes. */
export const MAX_ARCHIVE_BYTES = 200 * 1024 * 1024;

/** What a chosen file is to the import. */
export type ChosenKind = 'audio' | 'archive' | 'transcripts' | 'other';

/** The role of a file by its name: transcripts file, zip archive, audio, or something else. */
export function kindOf(name: string): ChosenKind {
  if (TRANSCRIPT_FILE.test(name)) return 'transcripts';
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  if (extension === 'zip') return 'archive';
  if ((AUDIO_EXTENSIONS as readonly string[]).includes(extension)) return 'audio';
  return 'other';
}

/** A file name without its extension. */
export const withoutExtension = (name: string) => name.replace(/\.[^.]+$/, '');

/**
 * The words a Voice Memos export is taken to say (its title), as the server reads it, or
 * null when the memo still has a default title ("New Recording 3", a date).
 */
export function memoTitle(name: string): string | null {
  const title = withoutExtension(name).replace(/_+/g, ' ').trim();
  const untitled =
    /^(new )?recording( \d+)?$/i.test(title) || /^[\d\s.:-]+$/.test(title) || !/\p{L}/u.test(title);
  return untitled ? null : title;
}

/**
 * Reads a transcripts file as the server does: one line per recording, the file name,
 * then a comma, a tab or `|`, then the words; a `file,text` header is skipped.
 */
export function parseTranscripts(text: string): Map<string, string> {
  const transcripts = new Map<string, string>();
  for (const rawLine of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const match = /^([^\t|,]+)[\t|,](.*)$/.exec(rawLine.trim());
    if (!match) continue;
    const file = (match[1] ?? '').trim().replace(/^"|"$/g, '').split(/[/\\]/).pop();
    const words = (match[2] ?? '')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .replaceAll('""', '"');
    if (!file || !words) continue;
    if (/^(file|filename|audio|path)$/i.test(file) && /^(text|transcript|phrase)$/i.test(words)) continue;
    transcripts.set(file, words);
  }
  return transcripts;
}

/** The transcript a transcripts file gives a file, by its full name or its name without extension. */
export function transcriptFor(transcripts: ReadonlyMap<string, string>, name: string): string | undefined {
  return transcripts.get(name) ?? transcripts.get(withoutExtension(name));
}

/** A readable size in the reader's language: "840 kB", "12.5 MB". */
export function formatSize(bytes: number, locale: string): string {
  const large = bytes >= 1024 * 1024;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: large ? 'megabyte' : 'kilobyte',
    maximumFractionDigits: large ? 1 : 0,
  }).format(large ? bytes / (1024 * 1024) : Math.max(1, bytes / 1024));
}
