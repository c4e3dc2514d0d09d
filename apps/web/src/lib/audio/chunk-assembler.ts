/** Gathers 16-bit blocks of any length into chunks of a fixed length (the socket's 3200 samples). */
export class ChunkAssembler {
  private pending: Int16Array;
  private filled = 0;

  constructor(
    private readonly chunkSamples: number,
    private readonly onChunk: (chunk: Int16Array) => void,
  ) {
    if (!Number.isInteger(chunkSamples) || chunkSamples <= 0)
      throw new RangeError('chunkSamples must be a positive integer');
    this.pending = new Int16Array(chunkSamples);
  }

  push(block: Int16Array) {
    let offset = 0;
    while (offset < block.length) {
      const count = Math.min(this.chunkSamples - this.filled, block.length - offset);
      this.pending.set(block.subarray(offset, offset + count), this.filled);
      this.filled += count;
      offset += count;
      if (this.filled === this.chunkSamples) {
        const chunk = this.pending;
        this.pending = new Int16Array(this.chunkSamples);
        this.filled = 0;
        this.onChunk(chunk);
      }
    }
  }

  /** What has not made a whole chunk yet; the assembler starts empty again. */
  takeRest(): Int16Array {
    const rest = this.pending.slice(0, this.filled);
    this.filled = 0;
    return rest;
  }
}
