import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertSafeKey, type BlobStorage } from './blob-storage.js';

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
    return new Uint8Array(await readFile(this.pathOf(key)));
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
