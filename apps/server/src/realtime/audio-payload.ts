import type { AudioSamples } from '@parla/contract';

/** Most samples one message may carry: 2 s at 16 kHz (the client sends 0.2 s). */
export const MAX_CHUNK_SAMPLES = 32_000;
/** Most samples a whole-utterance request may carry: the 20 s limit of takes. */
export const MAX_UTTERANCE_SAMPLES = 20 * 16_000;

/**
 * Reads 16-bit PCM sent as binary (little-endian) or as a JSON array of integers into
 * floats in -1..1. Returns undefined for anything else.
 */
export function parseSamples(payload: unknown, maxSamples: number): Float32Array | undefined {
  if (Array.isArray(payload)) {
    if (payload.length === 0 || payload.length > maxSamples) return undefined;
    const out = new Float32Array(payload.length);
    for (let i = 0; i < payload.length; i += 1) {
      const value: unknown = payload[i];
      if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
      out[i] = Math.max(-1, Math.min(1, value / 32768));
    }
    return out;
  }
  const bytes = binaryPayload(payload);
  if (!bytes || bytes.byteLength === 0 || bytes.byteLength % 2 !== 0 || bytes.byteLength / 2 > maxSamples)
    return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}

/** The bytes of a binary message (socket.io gives a Buffer, browsers send an ArrayBuffer). */
export function binaryPayload(payload: unknown): Uint8Array | undefined {
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  if (ArrayBuffer.isView(payload))
    return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  return undefined;
}

/** Largest compressed message: 2 s of Opus at a generous 64 kb/s, with its length prefixes. */
export const MAX_COMPRESSED_BYTES = 16_000 + 2 * 100;

export type { AudioSamples };
