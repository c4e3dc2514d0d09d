const CACHE_NAME = 'parla-voice-profile';

/**
 * A downloaded file of the voice profile in Cache Storage, keyed by its versioned address
 * (`…/v3/profile.bin`, `…/v3/voice.bin`): a new version's files are downloaded once and every
 * older version's are discarded (spec section 4).
 */
export async function cachedModel(
  url: string,
  download: () => Promise<ArrayBuffer>,
  /** Whether a kept copy is still as it was downloaded; one that is not is downloaded again. */
  intact: (bytes: Uint8Array) => boolean = () => true,
): Promise<Uint8Array> {
  const storage = typeof caches === 'undefined' ? null : await caches.open(CACHE_NAME).catch(() => null);
  const key = new URL(url, location.origin).href;
  if (storage) {
    const hit = await storage.match(key);
    if (hit) {
      const bytes = new Uint8Array(await hit.arrayBuffer());
      if (intact(bytes)) return bytes;
      await storage.delete(key).catch(() => false);
    }
  }
  const bytes = await download();
  if (storage) {
    const version = key.slice(0, key.lastIndexOf('/') + 1);
    for (const request of await storage.keys())
      if (!request.url.startsWith(version)) await storage.delete(request);
    await storage
      .put(key, new Response(bytes.slice(0), { headers: { 'content-type': 'application/octet-stream' } }))
      .catch(() => undefined);
  }
  return new Uint8Array(bytes);
}

/** Forget every kept profile (logout). */
export async function clearCachedModels() {
  if (typeof caches !== 'undefined') await caches.delete(CACHE_NAME).catch(() => false);
}
