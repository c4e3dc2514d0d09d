import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { wavToMono16k } from '../audio/audio.js';
import type { LoadedItem } from '../eval/evaluate.js';

/** One manifest entry as written on disk. */
export interface ManifestEntry {
  audio: string;
  text: string;
  speaker: string;
}

/** Read a manifest and decode its audio to 16 kHz mono; audio paths are relative to the manifest. */
export async function loadManifest(path: string): Promise<LoadedItem[]> {
  const raw: unknown = JSON.parse(await readFile(path, 'utf8'));
  if (!Array.isArray(raw)) throw new Error(`${path}: a manifest is a JSON array`);
  const base = dirname(resolve(path));
  const entries = raw.map((e: unknown, i) => {
    const entry = e as Partial<ManifestEntry>;
    if (typeof entry.audio !== 'string' || typeof entry.text !== 'string') {
      throw new Error(`${path}: item ${i} needs "audio" and "text"`);
    }
    return {
      audio: entry.audio,
      text: entry.text,
      speaker: typeof entry.speaker === 'string' ? entry.speaker : 'default',
    };
  });
  return Promise.all(
    entries.map(async (e) => ({
      text: e.text,
      speaker: e.speaker,
      audio: wavToMono16k(new Uint8Array(await readFile(resolve(base, e.audio)))),
    })),
  );
}
