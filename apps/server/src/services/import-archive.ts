import { unzipSync } from 'fflate';
import { AppError } from '../errors.js';

export interface ImportFile {
  name: string;
  bytes: Uint8Array;
}

/** Files an archive may hold, and their total once unpacked: a guard against zip bombs. */
export const MAX_ARCHIVE_ENTRIES = 2000;
export const MAX_UNPACKED_BYTES = 500 * 1024 * 1024;
const TRANSCRIPT_NAMES = [
  'transcripts.csv',
  'transcripts.tsv',
  'transcripts.txt',
  'transcript.csv',
  'transcript.tsv',
  'transcript.txt',
];

/** The last part of a path, so that folders inside an archive do not matter. */
export const baseName = (name: string) => name.split(/[/\\]/).pop() ?? name;

/**
 * Reads a transcript: one line per file, `file,text`, `file<TAB>text` or `file|text`
 * (a first line naming the columns is skipped; quotes around a CSV text are removed).
 */
export function parseTranscript(text: string): Map<string, string> {
  const transcripts = new Map<string, string>();
  for (const rawLine of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line) continue;
    const match = /^([^\t|,]+)[\t|,](.*)$/.exec(line);
    if (!match) continue;
    const file = baseName((match[1] ?? '').trim().replace(/^"|"$/g, ''));
    const words = (match[2] ?? '')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .replaceAll('""', '"');
    if (/^(file|filename|audio|path)$/i.test(file) && /^(text|transcript|phrase)$/i.test(words)) continue;
    if (file && words) transcripts.set(file, words);
  }
  return transcripts;
}

/** Unpacks a zip of audio files and a transcript file. */
export function readArchive(bytes: Uint8Array): { files: ImportFile[]; transcripts: Map<string, string> } {
  let entries: Record<string, Uint8Array>;
  let count = 0;
  let unpacked = 0;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        count += 1;
        unpacked += file.originalSize;
        if (count > MAX_ARCHIVE_ENTRIES || unpacked > MAX_UNPACKED_BYTES) {
          throw new AppError(
            413,
            `The archive is too large: at most ${MAX_ARCHIVE_ENTRIES} files and 500 MB unpacked.`,
            'ARCHIVE_TOO_LARGE',
          );
        }
        return (
          !file.name.endsWith('/') &&
          !baseName(file.name).startsWith('.') &&
          !file.name.startsWith('__MACOSX/')
        );
      },
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(400, 'The archive could not be opened: send a .zip file.', 'ARCHIVE_UNREADABLE');
  }
  const files: ImportFile[] = [];
  let transcripts = new Map<string, string>();
  for (const [name, content] of Object.entries(entries)) {
    if (TRANSCRIPT_NAMES.includes(baseName(name).toLowerCase())) {
      transcripts = parseTranscript(new TextDecoder().decode(content));
    } else {
      files.push({ name: baseName(name), bytes: content });
    }
  }
  return { files, transcripts };
}
