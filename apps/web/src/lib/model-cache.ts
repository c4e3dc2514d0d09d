const CACHE_NAME = 'parla-voice-profile';

/**
 * The downloaded voice profile in Cache Storage, keyed by its versioned address: a new
 * version is downloaded once and every older one is discarded (spec section 4).
 */
export async function cachedModel(url: string, download: () => Promise<ArrayBuffer>): Promise<Uint8Array> {
  const storage = typeof caches === 'undefined' ? null : await caches.open(CACHE_NAME).catch(() => null);
  const key = new URL(url, location.origin).href;
  if (storage) {
    const hit = await storage.match(key);
    if (hit) return new Uint8Array(await hit.arrayBuffer());
  }
  const bytes = await download();
  if (storage) {
    for (const request of await storage.keys()) if (request.url !== key) await storage.delete(request);
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
