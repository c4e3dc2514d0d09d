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
  let bytes: Uint8Array | undefined;
  if (payload instanceof ArrayBuffer) bytes = new Uint8Array(payload);
  else if (ArrayBuffer.isView(payload))
    bytes = new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  if (!bytes || bytes.byteLength === 0 || bytes.byteLength % 2 !== 0 || bytes.byteLength / 2 > maxSamples)
    return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}

export type { AudioSamples };
