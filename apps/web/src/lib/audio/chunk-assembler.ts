/**
 * Gathers 16-bit blocks of any length into chunks of a fixed length (the socket's 3200
 * samples). With `skipLeadingSilence`, the digital silence a microphone gives before its
 * first sound is left out: no room is that quiet, and the recogniser would take it for the
 * room's floor and the room's own sound after it for speech.
 */
export class ChunkAssembler {
  private pending: Int16Array;
  private filled = 0;
  private heard: boolean;

  constructor(
    private readonly chunkSamples: number,
    private readonly onChunk: (chunk: Int16Array) => void,
    options: { skipLeadingSilence?: boolean } = {},
  ) {
    this.heard = !(options.skipLeadingSilence ?? false);
    if (!Number.isInteger(chunkSamples) || chunkSamples <= 0)
      throw new RangeError('chunkSamples must be a positive integer');
    this.pending = new Int16Array(chunkSamples);
  }

  push(block: Int16Array) {
    let offset = 0;
    if (!this.heard) {
      while (offset < block.length && block[offset] === 0) offset += 1;
      this.heard = offset < block.length;
    }
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
