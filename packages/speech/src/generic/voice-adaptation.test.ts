import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGaussianFile, type GaussianSet } from '../phones/acoustic-model.js';
import { loadSoundSwallower, soundSwallowerModelDir } from '../platform/soundswallower.node.js';
import {
  adaptedAndJudged,
  adaptToVoice,
  voiceMeansFile,
  withMeansAdaptedTo,
} from '../platform/voice-adaptation.node.js';
import { DIGITS, fsddRecording, haveFsdd } from '../test/fsdd.node.js';
import { GenericRecogniser } from './generic.js';
import { concat, noise, word } from '../test/signals.js';
import {
  ADAPTATION_SECONDS,
  meansFileWith,
  modelFeatures,
  takesToAdaptOn,
  VoiceAdaptation,
  wordSeconds,
} from './voice-adaptation.js';
import { TAKES_TO_JUDGE } from './second-opinion.js';

const modelFile = async (name: string): Promise<Uint8Array> =>
  new Uint8Array(await readFile(join(soundSwallowerModelDir(), 'en-us', name)));

/** A model of `codebooks` codebooks, three streams of 13 and `densities` Gaussians each, all at `mean`. */
function tinyModel(
  codebooks: number,
  mean: number,
  variance: number,
  densities = 2,
): [GaussianSet, GaussianSet] {
  const shape = { codebooks, streams: 3, densities, dims: [13, 13, 13] };
  const n = codebooks * 3 * densities * 13;
  return [
    { ...shape, data: new Float32Array(n).fill(mean) },
    { ...shape, data: new Float32Array(n).fill(variance) },
  ];
}

describe('modelFeatures', () => {
  it('takes the mean off the cepstra and gives steady speech no deltas', () => {
    const frames = 10;
    const steady = new Float32Array(frames * 20).map((_, i) => 5 + (i % 20) / 4);
    const f = modelFeatures(steady, frames);
    expect(f.length).toBe(frames * 39);
    for (const v of f) expect(Math.abs(v)).toBeLessThan(1e-5);
  });

  it('gives a level that rises by one a frame a first cepstrum delta of four frames of it', () => {
    const frames = 12;
    // Every band rises together, so only the first cepstrum (sqrt(20) per unit) moves.
    const rising = new Float32Array(frames * 20).map((_, i) => Math.floor(i / 20));
    const f = modelFeatures(rising, frames);
    const t = 5; // far enough from either end for whole deltas
    expect(f[t * 39 + 13]).toBeCloseTo(4 * Math.sqrt(20), 4);
    expect(f[t * 39 + 26]).toBeCloseTo(0, 4);
    expect(f[t * 39 + 14]).toBeCloseTo(0, 4);
  });

  it("takes the mean over the take's words, not the silence put around them", () => {
    const word = (t: number): number[] => Array.from({ length: 20 }, (_, b) => 8 + Math.sin(t + b));
    const alone = new Float32Array(Array.from({ length: 6 }, (_, t) => word(t)).flat());
    // Ten frames of near silence before the same six frames.
    const quiet = Array.from({ length: 10 }, () => new Array<number>(20).fill(-5)).flat();
    const withSilence = new Float32Array([...quiet, ...alone]);
    const spans = [
      { phone: 'SIL', from: 0, to: 10 },
      { phone: 'W', from: 10, to: 16 },
    ];
    const a = modelFeatures(alone, 6);
    const b = modelFeatures(withSilence, 16, spans);
    // The cepstra of the words alike; deltas near the edges see the silence.
    for (let t = 0; t < 6; t++)
      for (let c = 0; c < 13; c++) expect(b[(t + 10) * 39 + c]).toBeCloseTo(a[t * 39 + c] as number, 4);
  });

  it('refuses a spectrum of another number of bands', () => {
    expect(() => modelFeatures(new Float32Array(30), 2)).toThrow(/20 mel bands/);
  });
});

describe('VoiceAdaptation', () => {
  it("draws the means of the aligned phone's codebook towards the frames, by how many there are", () => {
    const [means, variances] = tinyModel(2, 0, 1);
    const adaptation = new VoiceAdaptation(means, variances, ['AA', 'B']);
    const frames = 4;
    const features = new Float32Array(frames * 39).fill(2);
    adaptation.add(features, [
      { phone: 'AA', from: 0, to: 4 },
      { phone: 'ZZ', from: 0, to: 4 }, // not a phone of the model: nothing learnt
    ]);
    expect(adaptation.frames).toBe(4);
    const adapted = adaptation.adaptedMeans({ prior: 2 });
    // Both Gaussians of AA share each frame evenly: 2 frames each against a prior of 2.
    expect(adapted[0]).toBeCloseTo((2 * 0 + 2 * 2) / (2 + 2), 5);
    // B heard nothing and keeps its means.
    expect(adapted.subarray(3 * 2 * 13).every((v) => v === 0)).toBe(true);
    // A lighter prior moves further.
    expect(adaptation.adaptedMeans({ prior: 0.5 })[0]).toBeGreaterThan(adapted[0] as number);
  });

  it('leaves out the frames of an adaptation of some of the same takes', () => {
    const [means, variances] = tinyModel(1, 0, 1);
    const take = (level: number): Float32Array => new Float32Array(3 * 39).fill(level);
    const span = [{ phone: 'AA', from: 0, to: 3 }];
    const both = new VoiceAdaptation(means, variances, ['AA']);
    const first = new VoiceAdaptation(means, variances, ['AA']);
    const second = new VoiceAdaptation(means, variances, ['AA']);
    both.add(take(1), span);
    both.add(take(3), span);
    first.add(take(1), span);
    second.add(take(3), span);
    const without = both.adaptedMeans({ prior: 1 }, first);
    second.adaptedMeans({ prior: 1 }).forEach((v, i) => expect(without[i]).toBeCloseTo(v, 5));
    // Leaving out every take leaves the model's own means.
    expect(second.adaptedMeans({ prior: 1 }, second).every((v) => v === 0)).toBe(true);
    const other = new VoiceAdaptation(...tinyModel(2, 0, 1), ['AA', 'B']);
    expect(() => both.adaptedMeans({ prior: 1 }, other)).toThrow(/different models/);
  });

  it('refuses a model whose phones and codebooks do not match', () => {
    const [means, variances] = tinyModel(2, 0, 1);
    expect(() => new VoiceAdaptation(means, variances, ['AA'])).toThrow(/shapes do not match/);
  });
});

describe('takesToAdaptOn', () => {
  /** Takes of four phrases, `count` of each in turn, each `words` words of a second between quiet. */
  const takes = (words: number, count: number) => {
    const spoken = Array.from({ length: words }, (_, w) => [
      word(1, [120 + w * 10, 160], [700, 1100 - w * 100], w),
      noise(0.1),
    ]).flat();
    const audio = concat(noise(0.5), ...spoken, noise(0.4));
    return Array.from({ length: count * 4 }, (_, i) => ({ text: `phrase ${i % 4}`, id: i, audio }));
  };

  it('reads takes in turn until it has enough words to adapt on and takes to judge', async () => {
    // Takes of one word need more than the judging's twenty-four, takes of four fewer.
    for (const [count, wordsDecide] of [
      [1, true],
      [4, false],
    ] as const) {
      const all = takes(count, 30);
      const words = wordSeconds(all[0]?.audio ?? new Float32Array());
      expect(Math.ceil(ADAPTATION_SECONDS / words) > TAKES_TO_JUDGE).toBe(wordsDecide);
      const read: number[] = [];
      const chosen = await takesToAdaptOn(all, (take) => {
        read.push(take.id);
        return Promise.resolve(take.audio);
      });
      expect(chosen.length).toBe(Math.max(TAKES_TO_JUDGE, Math.ceil(ADAPTATION_SECONDS / words)));
      // No take beyond them is read.
      expect(read).toEqual(chosen.map((take) => take.id));
      // A take of each phrase before a second of any.
      expect(chosen.slice(0, 5).map((take) => take.text)).toEqual([0, 1, 2, 3, 0].map((p) => `phrase ${p}`));
    }
    // Fewer takes than either needs: all of them.
    const few = takes(1, 2);
    expect(await takesToAdaptOn(few, (take) => Promise.resolve(take.audio))).toHaveLength(few.length);
  });

  it('passes over a take whose audio cannot be read, and reads on', async () => {
    const all = takes(1, 2);
    const chosen = await takesToAdaptOn(all, (take) =>
      Promise.resolve(take.id === 0 ? undefined : take.audio),
    );
    // Two takes of four phrases, in turn: all but the one that cannot be read.
    expect(chosen.map((take) => take.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('meansFileWith', () => {
  it("writes the model's own means back byte for byte, checksum and all", async () => {
    const original = await modelFile('means');
    const means = parseGaussianFile(original, 'means');
    expect(meansFileWith(original, means.data)).toEqual(original);
  });

  it('writes other means that read back and that the engine loads', async () => {
    const original = await modelFile('means');
    const moved = parseGaussianFile(original, 'means').data.map((v) => v + 0.5);
    const bytes = meansFileWith(original, moved);
    expect(parseGaussianFile(bytes, 'means').data).toEqual(moved);
    const path = join(await mkdtemp(join(tmpdir(), 'means-')), 'means');
    await writeFile(path, bytes);
    const engine = await GenericRecogniser.create(await loadSoundSwallower(), ['yes'], { means: path });
    engine.delete();
    // A damaged file (one value changed after the checksum) is refused by the engine.
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] as number) ^ 0xff;
    await writeFile(path, bytes);
    await expect(
      GenericRecogniser.create(await loadSoundSwallower(), ['yes'], { means: path }),
    ).rejects.toThrow();
  }, 30_000);

  it('refuses means of another size', async () => {
    const original = await modelFile('means');
    expect(() => meansFileWith(original, new Float32Array(original.length))).toThrow(/does not fit/);
  });
});

describe.skipIf(!haveFsdd)('adapting the generic engine to a voice', () => {
  it("aligns a take's phones and names more of the voice's other takes once adapted", async () => {
    const module = await loadSoundSwallower();
    const aligner = await GenericRecogniser.create(module, []);
    const aligned = aligner.alignPhones('six', fsddRecording(6, 'nicolas', 0));
    expect(aligned?.spans.map((s) => s.phone)).toEqual(expect.arrayContaining(['S', 'IH', 'K']));
    expect(aligned?.frames).toBeGreaterThan(10);
    expect(aligner.alignPhones('zorblax', fsddRecording(6, 'nicolas', 0))).toBeUndefined();
    aligner.delete();

    // Three takes of each digit, as a person enrols; judged on five later takes of each.
    const takes = DIGITS.flatMap((text, d) =>
      [0, 1, 2].map((t) => ({ text, audio: fsddRecording(d, 'nicolas', t) })),
    );
    const named = async (means?: string): Promise<number> => {
      const engine = await GenericRecogniser.create(module, DIGITS, means === undefined ? {} : { means });
      let right = 0;
      for (const [d, text] of DIGITS.entries())
        for (const t of [5, 6, 7, 8, 9]) {
          engine.start();
          engine.process(fsddRecording(d, 'nicolas', t));
          if (engine.finish().text === text) right++;
        }
      engine.delete();
      return right;
    };
    const plain = await named();
    const adapted = await withMeansAdaptedTo(module, takes, named);
    // Measured: 31 of 50 plain, 36 adapted (docs/decisions/0127).
    expect(adapted).toBeGreaterThanOrEqual(plain + 3);

    // Judged on takes each fold's engine was not adapted on, the voice is known no better
    // than an engine adapted on all of them judges the same takes.
    const judged = await adaptedAndJudged(module, DIGITS, DIGITS, takes);
    if (judged === undefined) throw new Error('The engine can say the digits.');
    const flattered = judged.engine.knows(takes.map((take) => ({ ...take, confirmed: false })));
    judged.engine.delete();
    expect(judged.knows).toBeLessThan(flattered);
    expect(judged.knows).toBeGreaterThan(0);

    // What a server keeps beside the profile: the same judgement, and a compact form of the
    // means, a fraction of the model's means file, that makes one of the model's shape again
    // that differs from the model's own.
    const kept = await adaptToVoice(module, DIGITS, DIGITS, takes);
    if (kept === undefined) throw new Error('The takes can be aligned.');
    expect(kept.knows).toBe(judged.knows);
    const ownFile = await modelFile('means');
    expect(kept.voice.length).toBeLessThan(ownFile.length / 2);
    const own = parseGaussianFile(ownFile, 'means');
    const keptMeans = parseGaussianFile(await voiceMeansFile(kept.voice), 'means');
    expect(keptMeans.data.length).toBe(own.data.length);
    expect(keptMeans.data).not.toEqual(own.data);
  }, 120_000);
});
