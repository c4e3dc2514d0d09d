import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wavToMono16k } from '../audio/audio.js';
import { analyse } from '../features/features.js';
import { defaultFrontEnd } from '../model/profile.js';
import { loadPhoneModel } from '../platform/phones.node.js';
import { FSDD_RECORDINGS } from '../test/fsdd.node.js';
import { seeded } from '../test/signals.js';
import { parseGaussianFile, parseMdefPhones, PhoneModel, type GaussianSet } from './acoustic-model.js';
import { joinViews, phoneCepstra, posteriorgram } from './posteriorgram.js';

/** Write a Sphinx parameter file the way the trainer does (little-endian, with a checksum word). */
function s3File(set: GaussianSet): Uint8Array {
  const head = new TextEncoder().encode('s3\nversion 1.0\nchksum0 yes\nendhdr\n');
  const ints = [0x11223344, set.codebooks, set.streams, set.densities, ...set.dims, set.data.length];
  const out = new Uint8Array(head.length + 4 * ints.length + 4 * set.data.length + 4);
  out.set(head);
  const view = new DataView(out.buffer);
  let p = head.length;
  for (const v of ints) {
    view.setUint32(p, v, true);
    p += 4;
  }
  for (const v of set.data) {
    view.setFloat32(p, v, true);
    p += 4;
  }
  return out;
}

function randomSet(
  codebooks: number,
  densities: number,
  dims: number[],
  seed: number,
  offset = 0,
): GaussianSet {
  const r = seeded(seed);
  const n = codebooks * densities * dims.reduce((a, b) => a + b, 0);
  return {
    codebooks,
    streams: dims.length,
    densities,
    dims,
    data: Float32Array.from({ length: n }, () => offset + r() * 2 - 1),
  };
}

describe('Sphinx parameter files', () => {
  it('reads the shape and values back', () => {
    const set = randomSet(3, 5, [2, 3], 1);
    const read = parseGaussianFile(s3File(set));
    expect(read).toMatchObject({ codebooks: 3, streams: 2, densities: 5, dims: [2, 3] });
    expect(Array.from(read.data)).toEqual(Array.from(set.data));
  });

  it('refuses other files, cut files and inconsistent shapes', () => {
    const good = s3File(randomSet(2, 2, [2], 2));
    expect(() => parseGaussianFile(new TextEncoder().encode('RIFF....WAVE'))).toThrow(/not a Sphinx/);
    expect(() => parseGaussianFile(good.subarray(0, good.length - 12))).toThrow(/cut short/);
    const wrongCount = good.slice();
    new DataView(wrongCount.buffer).setUint32(
      new TextEncoder().encode('s3\nversion 1.0\nchksum0 yes\nendhdr\n').length + 20,
      99,
      true,
    );
    expect(() => parseGaussianFile(wrongCount)).toThrow(/does not match/);
  });

  it('reads the bundled model: 42 phones, 3 streams of 13', async () => {
    const model = await loadPhoneModel();
    expect(model.phones).toHaveLength(42);
    expect(model.phones).toContain('SIL');
    expect(model.phones.slice(2, 5)).toEqual(['AA', 'AE', 'AH']);
    expect(model.dims).toEqual([13, 13, 13]);
  });

  it('refuses a phone list that is not a binary model definition', () => {
    expect(() => parseMdefPhones(new TextEncoder().encode('0.3\n42 n_base\n'))).toThrow(/not a binary model/);
  });
});

describe('phone scoring', () => {
  it('joins the two views frame by frame with the phone view weighted', () => {
    const cep = { frames: 3, dim: 2, data: Float32Array.from([1, 2, 3, 4, 5, 6]) };
    const pg = { frames: 2, dim: 1, data: Float32Array.from([0.5, 1]) };
    expect(joinViews(cep, pg, 4)).toEqual({ frames: 2, dim: 3, data: Float32Array.from([1, 2, 2, 3, 4, 4]) });
  });

  it('scores the exact mixture, and merges each codebook keeping its mean and spread', () => {
    const dims = [3, 2];
    const means = randomSet(4, 32, dims, 3);
    const variances = randomSet(4, 32, dims, 4, 1.5);
    const model = new PhoneModel(['A', 'B', 'C', 'D'], means, variances);
    const r = seeded(5);
    const frame = Float32Array.from({ length: 5 }, () => r() * 2 - 1);
    const exact = model.score(frame, undefined, true);
    const merged = model.score(frame);
    let p = 0;
    for (let c = 0; c < 4; c++) {
      let total = 0;
      let offset = 0;
      for (const dim of dims) {
        let sum = 0;
        for (let g = 0; g < 32; g++) {
          let log = Math.log(1 / 32);
          for (let k = 0; k < dim; k++, p++) {
            const v = variances.data[p] as number;
            const x = (frame[offset + k] as number) - (means.data[p] as number);
            log += -0.5 * Math.log(2 * Math.PI * v) - (x * x) / (2 * v);
          }
          sum += Math.exp(log);
        }
        total += Math.log(sum);
        offset += dim;
      }
      expect(exact[c]).toBeCloseTo(total, 4);
      // 32 Gaussians merged into 16 of the same overall moments: close, not equal.
      expect(Math.abs((merged[c] as number) - total)).toBeLessThan(1);
    }
  });

  it('gets the phone bands only from an analyser asked for them', () => {
    const audio = Float32Array.from({ length: 4000 }, (_, i) => Math.sin(i / 9));
    const plain = analyse(audio, defaultFrontEnd());
    const withBands = analyse(audio, defaultFrontEnd(), true);
    expect(plain[0]?.phoneMel).toBeUndefined();
    expect(withBands[0]?.phoneMel).toHaveLength(20);
    expect(Array.from(withBands[0]?.logMel ?? [])).toEqual(Array.from(plain[0]?.logMel ?? []));
    expect(phoneCepstra(withBands)).toHaveLength(withBands.length * 13);
    expect(() => phoneCepstra(plain)).toThrow(/without the phone bands/);
  });

  it('refuses means and variances of different shapes', () => {
    expect(() => new PhoneModel(['A', 'B'], randomSet(2, 4, [3], 1), randomSet(2, 8, [3], 2, 1.5))).toThrow(
      /do not match/,
    );
    expect(() => new PhoneModel(['A'], randomSet(2, 4, [3], 1), randomSet(2, 4, [3], 2, 1.5))).toThrow(
      /2 codebooks for 1 phones/,
    );
  });
});

const fsddTake = join(FSDD_RECORDINGS, '3_theo_10.wav');

describe.skipIf(!existsSync(fsddTake))('posteriorgrams of real speech', () => {
  it('read "three" as the phones of three with the codebooks as trained', async () => {
    const model = await loadPhoneModel();
    const audio = wavToMono16k(new Uint8Array(await readFile(fsddTake)));
    const frames = analyse(audio, defaultFrontEnd(), true);
    const pg = posteriorgram(phoneCepstra(frames), model, { decimation: 1, exact: true });
    expect(pg.dim).toBe(42);
    const counts = new Map<string, number>();
    for (let t = 0; t < pg.frames; t++) {
      const row = pg.data.subarray(t * 42, (t + 1) * 42);
      let sum = 0;
      for (const v of row) sum += v * v;
      expect(sum).toBeCloseTo(1, 4); // square roots of a distribution
      const best = model.phones[row.indexOf(Math.max(...row))] as string;
      counts.set(best, (counts.get(best) ?? 0) + 1);
    }
    const speech = [...counts].filter(([p]) => p !== 'SIL' && !p.startsWith('+')).sort((a, b) => b[1] - a[1]);
    const top = speech.slice(0, 3).map(([p]) => p);
    expect(top).toEqual(expect.arrayContaining(['IY']));
    expect(top.some((p) => ['TH', 'R', 'ER', 'F'].includes(p))).toBe(true);
  });
});
