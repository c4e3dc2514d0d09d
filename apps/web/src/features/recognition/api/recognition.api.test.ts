import { beforeEach, describe, expect, it, vi } from 'vitest';

// The server's answers and the browser's kept profile files, as loadLocalModel meets them.
const get = vi.fn();
const cachedModel = vi.fn((_url: string, download: () => Promise<ArrayBuffer>) =>
  download().then((bytes) => new Uint8Array(bytes)),
);
const clearCachedModels = vi.fn(() => Promise.resolve());
vi.mock('../../../lib/api', () => ({ api: { get: (...args: unknown[]) => get(...args) as unknown } }));
vi.mock('../../../lib/model-cache', () => ({ cachedModel, clearCachedModels }));

const { loadGenericSetup, loadLocalModel } = await import('./recognition.api');
const { sealHolds } = await import('@parla/speech');

beforeEach(() => {
  vi.clearAllMocks();
});

describe('loadLocalModel', () => {
  it("brings the server's current profile, from the cache or the server", async () => {
    const profile = '/app/end_user/models/m1/v3/profile.bin';
    get.mockImplementation((url: string) =>
      Promise.resolve(
        url === profile
          ? new Uint8Array([7, 8]).buffer
          : { version: 3, links: [{ name: 'profile', type: 'acoustic', url: profile, size_bytes: 2 }] },
      ),
    );
    expect(await loadLocalModel()).toEqual({ version: 3, bytes: new Uint8Array([7, 8]) });
    // A kept copy is checked against its seal before it is used (docs/decisions/0138).
    expect(cachedModel).toHaveBeenCalledWith(profile, expect.any(Function), sealHolds);
    expect(clearCachedModels).not.toHaveBeenCalled();
  });

  it('forgets a kept profile once the server has none: it was made from deleted takes', async () => {
    get.mockResolvedValue({ version: null, links: [] });
    expect(await loadLocalModel()).toBeNull();
    expect(clearCachedModels).toHaveBeenCalledOnce();
    expect(cachedModel).not.toHaveBeenCalled();
  });

  it('keeps it when the server cannot be asked', async () => {
    get.mockRejectedValue(new Error('offline'));
    await expect(loadLocalModel()).rejects.toThrow('offline');
    expect(clearCachedModels).not.toHaveBeenCalled();
  });
});

describe('loadGenericSetup', () => {
  const phrases = { phrases: [{ text: 'Good morning' }, { text: 'Call my son' }] };
  const pronunciations = { pronunciations: [['good', 'G UH D']] };
  /** The server's answers: a voice its own means know, and whether the pronunciations come. */
  const server = (pronounced: boolean) => (url: string) => {
    if (url === '/app/modelsInfo')
      return Promise.resolve({ models: [{ modelmeta: { generic_knows: 0.8 } }] });
    if (url === '/app/casr/phrases') return Promise.resolve(phrases);
    if (url === '/app/casr/pronunciations')
      return pronounced ? Promise.resolve(pronunciations) : Promise.reject(new Error('offline'));
    return Promise.reject(new Error(`unexpected ${url}`));
  };

  it('brings the phrases and how their words are said', async () => {
    get.mockImplementation(server(true));
    expect(await loadGenericSetup()).toEqual({
      phrases: ['Good morning', 'Call my son'],
      ownMeansTrusted: true,
      pronunciations: pronunciations.pronunciations,
    });
  });

  it('goes without the pronunciations when they cannot be fetched: the engine reads its dictionary', async () => {
    get.mockImplementation(server(false));
    expect(await loadGenericSetup()).toEqual({
      phrases: ['Good morning', 'Call my son'],
      ownMeansTrusted: true,
    });
  });
});
