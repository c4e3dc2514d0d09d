import { describe, expect, it } from 'vitest';
import { ChunkAssembler } from './chunk-assembler';

describe('ChunkAssembler', () => {
  it('leaves out the digital silence before the first sound, and no silence after it', () => {
    const chunks: Int16Array[] = [];
    const assembler = new ChunkAssembler(4, (chunk) => chunks.push(chunk), { skipLeadingSilence: true });
    assembler.push(new Int16Array(5));
    assembler.push(Int16Array.from([0, 0, 7, 0, 0, 8, 0]));
    expect(chunks.map((c) => [...c])).toEqual([[7, 0, 0, 8]]);
    expect([...assembler.takeRest()]).toEqual([0]);
  });

  it('cuts 800-sample blocks into 3200-sample chunks in order and keeps the rest', () => {
    const chunks: Int16Array[] = [];
    const assembler = new ChunkAssembler(3200, (chunk) => chunks.push(chunk));
    let next = 0;
    for (let block = 0; block < 9; block += 1) {
      assembler.push(Int16Array.from({ length: 800 }, () => (next += 1)));
    }
    expect(chunks).toHaveLength(2);
    expect(chunks[0]?.[0]).toBe(1);
    expect(chunks[1]?.[3199]).toBe(6400);
    const rest = assembler.takeRest();
    expect(rest.length).toBe(800);
    expect(rest[0]).toBe(6401);
    expect(assembler.takeRest().length).toBe(0);
  });

  it('handles blocks longer than a chunk', () => {
    const lengths: number[] = [];
    const assembler = new ChunkAssembler(100, (chunk) => lengths.push(chunk.length));
    assembler.push(new Int16Array(250));
    expect(lengths).toEqual([100, 100]);
    expect(assembler.takeRest().length).toBe(50);
  });

  it('refuses a chunk length that is not a positive integer', () => {
    expect(() => new ChunkAssembler(0, () => undefined)).toThrow(RangeError);
  });
});
