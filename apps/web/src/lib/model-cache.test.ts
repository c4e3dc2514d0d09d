import { afterEach, describe, expect, it, vi } from 'vitest';
import { cachedModel } from './model-cache';

/** Cache Storage as the browser keeps it: responses by address. */
function fakeCaches() {
  const kept = new Map<string, Response>();
  const cache = {
    match: (key: string) => Promise.resolve(kept.get(key)?.clone()),
    put: (key: string, response: Response) => {
      kept.set(key, response);
      return Promise.resolve();
    },
    keys: () => Promise.resolve([...kept.keys()].map((url) => ({ url }))),
    delete: (request: string | { url: string }) =>
      Promise.resolve(kept.delete(typeof request === 'string' ? request : request.url)),
  };
  vi.stubGlobal('caches', { open: () => Promise.resolve(cache), delete: () => Promise.resolve(true) });
  vi.stubGlobal('location', { origin: 'https://parla.test' });
  return kept;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('cachedModel', () => {
  it("keeps a version's files together, downloads each once, and lets older versions go", async () => {
    const kept = fakeCaches();
    const download = vi.fn((bytes: number[]) => () => Promise.resolve(new Uint8Array(bytes).buffer));
    const v1 = '/app/end_user/models/m1/v1/profile.bin';
    const v2 = ['/app/end_user/models/m1/v2/profile.bin', '/app/end_user/models/m1/v2/voice.bin'];
    await cachedModel(v1, download([1]));
    expect(await cachedModel(v2[0] ?? '', download([2]))).toEqual(new Uint8Array([2]));
    expect(await cachedModel(v2[1] ?? '', download([3]))).toEqual(new Uint8Array([3]));
    // Both files of the second version are kept; the first version's went.
    expect([...kept.keys()]).toEqual(v2.map((path) => `https://parla.test${path}`));
    const again = vi.fn(() => Promise.reject(new Error('offline')));
    expect(await cachedModel(v2[0] ?? '', again)).toEqual(new Uint8Array([2]));
    expect(await cachedModel(v2[1] ?? '', again)).toEqual(new Uint8Array([3]));
    expect(again).not.toHaveBeenCalled();
  });

  it('downloads again a kept copy that is no longer intact, and keeps the new one', async () => {
    const kept = fakeCaches();
    const url = '/app/end_user/models/m1/v4/profile.bin';
    const intact = (bytes: Uint8Array) => bytes[0] === 7;
    await cachedModel(url, () => Promise.resolve(new Uint8Array([8]).buffer));
    const download = vi.fn(() => Promise.resolve(new Uint8Array([7]).buffer));
    expect(await cachedModel(url, download, intact)).toEqual(new Uint8Array([7]));
    expect(download).toHaveBeenCalledTimes(1);
    expect(
      new Uint8Array(await (kept.get(`https://parla.test${url}`) as Response).clone().arrayBuffer()),
    ).toEqual(new Uint8Array([7]));
    // Intact now: kept.
    expect(await cachedModel(url, download, intact)).toEqual(new Uint8Array([7]));
    expect(download).toHaveBeenCalledTimes(1);
  });
});
