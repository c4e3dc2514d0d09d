import { decodeWav, deserializeProfile, serializeProfile, toMono16k, trainProfile } from '@parla/speech';
import { afterAll, describe, expect, it } from 'vitest';
import { DIGIT_WORDS, fsddTake } from '../../test/support/audio.js';
import { buffersUnder, ProfileLoader, profileLoaderWorkerFile } from './profile-loader.js';

// Runs the compiled worker (the test command builds the server before testing).
const workerFile = profileLoaderWorkerFile();

/** A profile of three digits said by jackson, three takes each, as its file. */
function profileFile(): Uint8Array {
  const takes = [1, 4, 7].flatMap((digit) =>
    [0, 1, 2].map((take) => ({
      text: DIGIT_WORDS[digit] ?? '',
      audio: toMono16k(decodeWav(fsddTake(digit, 'jackson', take))),
    })),
  );
  return serializeProfile(trainProfile(takes));
}

describe('ProfileLoader', () => {
  const bytes = profileFile();
  const loader = new ProfileLoader(workerFile);
  afterAll(() => loader.close());

  it('finds its compiled worker', () => {
    expect(workerFile).toMatch(/profile-loader\.worker\.js$/);
  });

  it('loads in its worker the very profile loading inline gives', async () => {
    const [threaded, inline] = await Promise.all([
      loader.load(bytes),
      new ProfileLoader(undefined).load(bytes),
    ]);
    expect(threaded).toEqual(deserializeProfile(bytes));
    expect(inline).toEqual(threaded);
    expect(threaded.templates[0]?.data).toBeInstanceOf(Int8Array);
    // The file it was sent is still the caller's.
    expect(bytes.byteLength).toBeGreaterThan(0);
  });

  it('refuses a damaged file as loading inline does, and goes on loading the next', async () => {
    const damaged = bytes.slice();
    damaged[damaged.length - 20] = (damaged[damaged.length - 20] as number) ^ 0x10;
    await expect(loader.load(damaged)).rejects.toMatchObject({
      name: 'SpeechError',
      code: 'bad_model',
      message: expect.stringMatching(/damaged/) as unknown,
    });
    await expect(loader.load(bytes)).resolves.toMatchObject({ phrases: ['one', 'four', 'seven'] });
  });
});

describe('buffersUnder', () => {
  it('finds each buffer under typed arrays once, however deep', () => {
    const shared = new Float32Array(8);
    const own = new Int8Array(4);
    expect(
      buffersUnder({ a: shared.subarray(0, 4), b: [shared.subarray(4), { c: own }], d: 'text', e: null }),
    ).toEqual([shared.buffer, own.buffer]);
  });
});
