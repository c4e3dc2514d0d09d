// Reads the packets out of an Ogg file (RFC 3533), for tests that need real Opus packets:
// Debian's `opusenc` writes Ogg Opus, the browser sends the bare packets.

/** Every packet of the first logical stream, in order, headers included. */
export function oggPackets(file: Uint8Array): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let pending: number[] = [];
  let p = 0;
  while (p + 27 <= file.length) {
    if (String.fromCharCode(...file.subarray(p, p + 4)) !== 'OggS')
      throw new Error(`no Ogg page at byte ${p}`);
    const segments = file[p + 26] as number;
    const table = file.subarray(p + 27, p + 27 + segments);
    let data = p + 27 + segments;
    for (const size of table) {
      for (let i = 0; i < size; i++) pending.push(file[data + i] as number);
      data += size;
      // A segment shorter than 255 bytes ends its packet; 255 means it goes on.
      if (size < 255) {
        packets.push(Uint8Array.from(pending));
        pending = [];
      }
    }
    p = data;
  }
  return packets;
}

/** The Opus audio packets of an Ogg Opus file and its pre-skip (48 kHz samples). */
export function oggOpusPackets(file: Uint8Array): { preSkip: number; packets: Uint8Array[] } {
  const [head, tags, ...packets] = oggPackets(file);
  if (head === undefined || String.fromCharCode(...head.subarray(0, 8)) !== 'OpusHead')
    throw new Error('not an Ogg Opus file');
  if (tags === undefined || String.fromCharCode(...tags.subarray(0, 8)) !== 'OpusTags')
    throw new Error('Ogg Opus file without OpusTags');
  const preSkip = (head[10] as number) | ((head[11] as number) << 8);
  return { preSkip, packets };
}
