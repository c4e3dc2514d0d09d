import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertSafeKey, BlobMissing, type BlobStorage } from './blob-storage.js';

/** Blobs as files under a folder. A write lands whole or not at all (temporary file, then rename). */
export class LocalStorage implements BlobStorage {
  constructor(private readonly root: string) {}

  async put(key: string, data: Uint8Array) {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${randomUUID()}.part`;
    await writeFile(temporary, data, { mode: 0o600 });
    await rename(temporary, file);
  }

  async get(key: string) {
    let file: Buffer;
    try {
      file = await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobMissing(key);
      throw error;
    }
    // The bytes read, as a plain Uint8Array (a Buffer's `slice` shares its memory): a view
    // when they fill a buffer of their own, as a whole file read does, not a second copy.
    return file.byteOffset === 0 && file.buffer.byteLength === file.byteLength
      ? new Uint8Array(file.buffer)
      : new Uint8Array(file);
  }

  async delete(key: string) {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string) {
    await rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  private pathOf(key: string) {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }
}
