/** Where audio and model files live: a folder in the embedded deployment, an object store when scaled. */
export interface BlobStorage {
  put(key: string, data: Uint8Array): Promise<void>;
  /** The blob's bytes; a {@link BlobMissing} when there is none. */
  get(key: string): Promise<Uint8Array>;
  delete(key: string): Promise<void>;
  /** Removes every blob whose key starts with the prefix (a user's folder). */
  deletePrefix(prefix: string): Promise<void>;
}

/** What `get` throws for a key nothing is stored under: never stored, or lost since. */
export class BlobMissing extends Error {
  constructor(readonly key: string) {
    super(`Nothing is stored under ${key}`);
    this.name = 'BlobMissing';
  }
}

/** Keys are paths of safe segments: users/{id}/takes/{id}.wav. */
export function assertSafeKey(key: string) {
  if (
    !/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(key) ||
    key.split('/').some((part) => part === '..' || part === '.')
  ) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}
