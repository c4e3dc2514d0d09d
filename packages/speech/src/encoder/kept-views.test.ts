import { describe, expect, it } from 'vitest';
import { SpeechError } from '../errors.js';
import { crc32 } from '../model/crc32.js';
import { quantise, type Sequence } from '../model/dtw.js';
import { encoderTemplate, KEPT_VIEW_STEP } from './encoder-view.js';
import {
  decodeTakeView,
  deserializeEncoderViews,
  encodeTakeView,
  serializeEncoderViews,
  viewsStamp,
} from './kept-views.js';
import { PROJECTED_VALUES } from './projection.js';

/** A view of `frames` unit frames, each pointing along its own value. */
function viewOf(frames: number, offset = 0): Sequence {
  const data = new Float32Array(frames * PROJECTED_VALUES);
  for (let t = 0; t < frames; t++) data[t * PROJECTED_VALUES + ((t + offset) % PROJECTED_VALUES)] = 1;
  return { frames, dim: PROJECTED_VALUES, data };
}

/** `bytes` with its stamp changed and its seal made again, as another build would write it. */
function stampedOtherwise(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  const bits = new DataView(out.buffer);
  bits.setUint32(6, viewsStamp() ^ 1, true);
  const end = out.length - 8;
  bits.setUint32(end + 4, crc32(out.subarray(0, end)), true);
  return out;
}

describe('a take’s kept view', () => {
  it('reads back its 8-bit values', () => {
    const kept = quantise(viewOf(5), KEPT_VIEW_STEP);
    const bytes = encodeTakeView(kept);
    expect(bytes.length).toBe(14 + 5 * PROJECTED_VALUES);
    expect(decodeTakeView(bytes)).toEqual(kept);
  });

  it('is not read back when another encoder or projection made it, or when cut short', () => {
    const bytes = encodeTakeView(quantise(viewOf(3), KEPT_VIEW_STEP));
    const other = bytes.slice();
    new DataView(other.buffer).setUint32(4, viewsStamp() ^ 1, true);
    expect(decodeTakeView(other)).toBeUndefined();
    expect(decodeTakeView(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
    expect(decodeTakeView(new TextEncoder().encode('RIFF and more'))).toBeUndefined();
  });
});

describe('a profile’s encoder views', () => {
  const templates = [
    encoderTemplate('water', viewOf(4)),
    encoderTemplate('tea please', viewOf(6, 10)),
    encoderTemplate('water', viewOf(5, 3)),
  ];

  it('read back as the templates they were, sketches and all', () => {
    const bytes = serializeEncoderViews(templates);
    expect(deserializeEncoderViews(bytes)).toEqual(templates);
    // Values, not floats: the header and the seal around one byte a value.
    expect(bytes.length).toBeLessThan(15 * PROJECTED_VALUES + 200);
  });

  it('are left unread when another encoder or projection made them', () => {
    expect(deserializeEncoderViews(stampedOtherwise(serializeEncoderViews(templates)))).toBeUndefined();
  });

  it('refuse a damaged file, or one that is none', () => {
    const bytes = serializeEncoderViews(templates);
    const damaged = bytes.slice();
    damaged[100] = (damaged[100] as number) ^ 0x10;
    expect(() => deserializeEncoderViews(damaged)).toThrow(SpeechError);
    expect(() => deserializeEncoderViews(bytes.subarray(0, bytes.length - 3))).toThrow(/damaged/);
    expect(() => deserializeEncoderViews(new TextEncoder().encode('PRLM and more bytes'))).toThrow(
      /not a file of encoder views/,
    );
  });

  it('hold none for a profile with no views', () => {
    expect(deserializeEncoderViews(serializeEncoderViews([]))).toEqual([]);
  });
});
