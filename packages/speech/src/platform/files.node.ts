import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { wavToMono16k } from '../audio/audio.js';
import { SpeechError } from '../errors.js';
import type { LoadedItem } from '../eval/evaluate.js';

/** One manifest entry as written on disk. */
export interface ManifestEntry {
  audio: string;
  text: string;
  speaker: string;
  /** When the item was said (a recording session); items of one session stay together
   * when `speech:eval --adapt` shuffles them. */
  session?: string;
}

/** A manifest that cannot be used, with what is wrong and where. */
export class ManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

const filled = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** The file's bytes; `lead` starts the message when it cannot be read. */
async function readOrExplain(path: string, lead: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : String(error);
    throw new ManifestError(`${lead} ${path}: ${why}.`);
  }
}

/**
 * Read a manifest and decode its audio to 16 kHz mono; audio paths are relative to the
 * manifest. Anything wrong (the file, its JSON, an item, an audio file) throws a
 * {@link ManifestError} that names the manifest, the item and the reason.
 */
export async function loadManifest(path: string): Promise<LoadedItem[]> {
  const text = (await readOrExplain(path, 'Cannot read the manifest')).toString('utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ManifestError(`${path} is not JSON: ${(error as Error).message}.`);
  }
  if (!Array.isArray(raw) || raw.length === 0)
    throw new ManifestError(
      `${path} must be a JSON array of {"audio", "text", "speaker"} items, with at least one.`,
    );
  const base = dirname(resolve(path));
  const entries = raw.map((e: unknown, i) => {
    const entry = (typeof e === 'object' && e !== null ? e : {}) as Partial<ManifestEntry>;
    if (!filled(entry.audio) || !filled(entry.text)) {
      throw new ManifestError(`${path}, item ${i + 1}: "audio" and "text" must be non-empty strings.`);
    }
    return {
      audio: entry.audio,
      text: entry.text,
      speaker: typeof entry.speaker === 'string' ? entry.speaker : 'default',
      ...(filled(entry.session) ? { session: entry.session } : {}),
    };
  });
  return Promise.all(
    entries.map(async (e, i) => {
      const file = resolve(base, e.audio);
      const bytes = await readOrExplain(file, `${path}, item ${i + 1}: cannot read the audio file`);
      try {
        return { ...e, source: e.audio, audio: wavToMono16k(new Uint8Array(bytes)) };
      } catch (error) {
        if (!(error instanceof SpeechError)) throw error;
        throw new ManifestError(`${path}, item ${i + 1} (${e.audio}): ${error.message}`);
      }
    }),
  );
}
