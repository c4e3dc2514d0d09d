import { SpeechError } from '../errors.js';
import { SAMPLE_RATE, type Hz } from '../units.js';

/**
 * Opus for the socket event `stream_compressed_audio`.
 *
 * The browser encodes the microphone with WebCodecs `AudioEncoder` (codec 'opus', mono)
 * and sends the raw packets it outputs, no container. One message holds one or more
 * packets, each prefixed by its length:
 *
 *     [uint16 little-endian byte length][packet bytes] [uint16 length][packet bytes] ...
 *
 * Packets must arrive in the order they were encoded, one decoder per stream, because
 * Opus decoding carries state from packet to packet.
 */

/** Largest packet accepted: what the decoder's input buffer holds for one channel (120 ms at 256 kb/s). */
export const MAX_OPUS_PACKET_BYTES = 3840;

/** Output rates libopus decodes to directly, whatever rate the encoder was fed. */
export type OpusOutputRate = 8000 | 12000 | 16000 | 24000 | 48000;
const OUTPUT_RATES: readonly number[] = [8000, 12000, 16000, 24000, 48000];

const CONTAINERS: [string, number[]][] = [
  ['an Ogg file', [0x4f, 0x67, 0x67, 0x53]], // "OggS"
  ['a WAV file', [0x52, 0x49, 0x46, 0x46]], // "RIFF"
  ['a WebM or Matroska file', [0x1a, 0x45, 0xdf, 0xa3]],
];

/**
 * Split one message into its Opus packets (views into `bytes`, nothing copied). Throws
 * `SpeechError` with `empty_audio` for an empty message, `not_audio` for a container file
 * or a zero-length packet, `truncated_audio` when a length prefix or packet is cut short,
 * and `unsupported_audio` for a packet larger than {@link MAX_OPUS_PACKET_BYTES}.
 */
export function parseOpusFrames(bytes: Uint8Array): Uint8Array[] {
  if (bytes.length === 0) throw new SpeechError('empty_audio', 'The message holds no Opus packets.');
  for (const [name, magic] of CONTAINERS) {
    if (bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b))
      throw new SpeechError(
        'not_audio',
        `The message is ${name}, not raw Opus packets with a 2-byte length before each.`,
      );
  }
  const packets: Uint8Array[] = [];
  let p = 0;
  while (p < bytes.length) {
    if (p + 2 > bytes.length)
      throw new SpeechError(
        'truncated_audio',
        `Opus packet ${packets.length + 1}: the message ends inside its 2-byte length.`,
      );
    const length = (bytes[p] as number) | ((bytes[p + 1] as number) << 8);
    p += 2;
    if (length === 0)
      throw new SpeechError('not_audio', `Opus packet ${packets.length + 1} has a length of zero.`);
    if (length > MAX_OPUS_PACKET_BYTES)
      throw new SpeechError(
        'unsupported_audio',
        `Opus packet ${packets.length + 1} claims ${length} bytes; at most ${MAX_OPUS_PACKET_BYTES} are accepted.`,
      );
    if (p + length > bytes.length)
      throw new SpeechError(
        'truncated_audio',
        `Opus packet ${packets.length + 1} claims ${length} bytes but only ${bytes.length - p} follow.`,
      );
    packets.push(bytes.subarray(p, p + length));
    p += length;
  }
  return packets;
}

/** Frame packets the way {@link parseOpusFrames} reads them (what the browser sends). */
export function frameOpusPackets(packets: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(packets.reduce((n, pk) => n + 2 + pk.length, 0));
  let p = 0;
  for (const pk of packets) {
    if (pk.length === 0 || pk.length > MAX_OPUS_PACKET_BYTES)
      throw new SpeechError('bad_request', `An Opus packet of ${pk.length} bytes cannot be framed.`);
    out[p] = pk.length & 0xff;
    out[p + 1] = pk.length >> 8;
    out.set(pk, p + 2);
    p += 2 + pk.length;
  }
  return out;
}

/** Options for {@link createOpusStreamDecoder}. */
export interface OpusStreamDecoderOptions {
  /** Output rate, one of {@link OpusOutputRate}; the recogniser's 16 kHz unless said otherwise. */
  sampleRate?: Hz;
  /**
   * Encoder look-ahead to drop from the start, in 48 kHz samples as an Ogg OpusHead gives
   * it. Raw WebCodecs packets carry no header; the default 0 keeps the first 6.5 ms of
   * look-ahead, which the end-pointer treats as the silence it is.
   */
  preSkip?: number;
}

/** Decodes one stream's Opus packets to mono float samples. Not shareable between streams. */
export interface OpusStreamDecoder {
  readonly sampleRate: OpusOutputRate;
  /** Decode one framed message (see {@link parseOpusFrames}). */
  decodePackets(bytes: Uint8Array): Float32Array;
  /** Decode packets already split. */
  decodeFrames(packets: readonly Uint8Array[]): Float32Array;
  /** Forget the stream so far (a new recording starts); wait for it before decoding again. */
  reset(): Promise<void>;
  /** Release the decoder's WebAssembly memory; the decoder is unusable afterwards. */
  free(): void;
}

interface DecodedChunk {
  channelData: Float32Array[];
  samplesDecoded: number;
  errors: { message: string }[];
}

/**
 * Create a decoder for one stream. The Opus decoder is libopus compiled to WebAssembly and
 * shipped inside the npm package `opus-decoder` (no download at run time, same code in
 * Node and browsers); it is loaded on first use, so code that never meets Opus never
 * loads it. Stereo packets are mixed down to mono by libopus itself.
 */
export async function createOpusStreamDecoder(
  options: OpusStreamDecoderOptions = {},
): Promise<OpusStreamDecoder> {
  const sampleRate = (options.sampleRate ?? SAMPLE_RATE) as OpusOutputRate;
  if (!OUTPUT_RATES.includes(sampleRate))
    throw new SpeechError('bad_request', `Opus decodes to 8, 12, 16, 24 or 48 kHz, not ${sampleRate} Hz.`);
  const { OpusDecoder } = await import('opus-decoder');
  const decoder = new OpusDecoder({ sampleRate, channels: 1, preSkip: options.preSkip ?? 0 });
  await decoder.ready;
  let state: 'ready' | 'resetting' | 'freed' = 'ready';

  const decodeFrames = (packets: readonly Uint8Array[]): Float32Array => {
    if (state !== 'ready')
      throw new SpeechError(
        'bad_request',
        state === 'freed' ? 'The Opus decoder was freed.' : 'The Opus decoder is still resetting.',
      );
    if (packets.length === 0) return new Float32Array(0);
    for (const pk of packets) {
      if (pk.length === 0 || pk.length > MAX_OPUS_PACKET_BYTES)
        throw new SpeechError('unsupported_audio', `An Opus packet of ${pk.length} bytes cannot be decoded.`);
    }
    const out = decoder.decodeFrames([...packets]) as DecodedChunk;
    const [first] = out.errors;
    if (first !== undefined)
      throw new SpeechError('not_audio', `The data is not valid Opus (${first.message}).`);
    return out.channelData[0]?.subarray(0, out.samplesDecoded) ?? new Float32Array(0);
  };

  return {
    sampleRate,
    decodeFrames,
    decodePackets: (bytes) => decodeFrames(parseOpusFrames(bytes)),
    reset: async () => {
      if (state === 'freed') throw new SpeechError('bad_request', 'The Opus decoder was freed.');
      state = 'resetting';
      await decoder.reset();
      state = 'ready';
    },
    free: () => {
      if (state === 'freed') return;
      state = 'freed';
      decoder.free();
    },
  };
}
