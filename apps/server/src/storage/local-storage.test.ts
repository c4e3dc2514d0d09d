import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobMissing } from './blob-storage.js';
import { LocalStorage } from './local-storage.js';

describe('LocalStorage', () => {
  let root = '';
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'parla-storage-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('stores, reads and deletes blobs, leaving no temporary files', async () => {
    const storage = new LocalStorage(root);
    await storage.put('users/u1/takes/t1.wav', new Uint8Array([1, 2, 3]));
    await storage.put('users/u1/models/1.bin', new Uint8Array([4]));
    expect([...(await storage.get('users/u1/takes/t1.wav'))]).toEqual([1, 2, 3]);
    expect(await readdir(path.join(root, 'users/u1/takes'))).toEqual(['t1.wav']);
    await storage.delete('users/u1/takes/t1.wav');
    await expect(storage.get('users/u1/takes/t1.wav')).rejects.toThrow(BlobMissing);
    await storage.deletePrefix('users/u1');
    expect(await readdir(root)).toEqual(['users']);
    expect(await readdir(path.join(root, 'users'))).toEqual([]);
  });

  it('gives plain Uint8Arrays of exactly the bytes stored', async () => {
    const storage = new LocalStorage(root);
    for (const size of [0, 1, 4095, 70_000]) {
      const data = Uint8Array.from({ length: size }, (_, i) => (i * 7) & 0xff);
      await storage.put(`users/u1/b${size}.bin`, data);
      const back = await storage.get(`users/u1/b${size}.bin`);
      expect(Object.getPrototypeOf(back)).toBe(Uint8Array.prototype);
      expect(back.byteLength).toBe(size);
      // What reads `.buffer` reads these bytes and no others.
      expect(new Uint8Array(back.buffer, back.byteOffset, back.byteLength)).toEqual(data);
      expect(back.slice(0, 3)).toEqual(data.slice(0, 3));
    }
  });

  it('refuses keys that would leave its folder', async () => {
    const storage = new LocalStorage(root);
    await expect(storage.put('../escape', new Uint8Array())).rejects.toThrow(/Unsafe storage key/);
    await expect(storage.get('users/../../etc/passwd')).rejects.toThrow(/Unsafe storage key/);
    await expect(storage.put('/absolute', new Uint8Array())).rejects.toThrow(/Unsafe storage key/);
  });
});
