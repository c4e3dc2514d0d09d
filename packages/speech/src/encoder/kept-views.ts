import { SpeechError } from '../errors.js';
import { crc32 } from '../model/crc32.js';
import type { Quantised } from '../model/dtw.js';
import { encoderTemplate, KEPT_VIEW_STEP, type EncoderTemplate } from './encoder-view.js';
import { PROJECTED_VALUES } from './projection.js';
import { PROJECTION_TEXT } from './projection.generated.js';

/**
 * The encoder's views kept as bytes (docs/decisions/0146): one take's beside its audio, as
 * its analysis is (a take never changes, and the encoder is the costly part), and a
 * profile's in a file beside its model file. Both are stamped with {@link viewsStamp}: a
 * view made by another encoder or projection is not read back, so views of two kinds never
 * meet in one alignment. Little-endian throughout.
 */

/** The encoder the views are made by, as its package carries it (pinned, docs/decisions/0144). */
const ENCODER_NAME = 'moonshine-tiny-encoder-int8@0.1.7';

let stamp: number | undefined;

/** What the views this build makes depend on: the encoder and the projection, hashed. */
export function viewsStamp(): number {
  stamp ??= crc32(new TextEncoder().encode(`${ENCODER_NAME}\n${PROJECTION_TEXT}`));
  return stamp;
}

const TAKE_MAGIC = 'PEV1';
const TAKE_HEADER_BYTES = 4 + 4 + 4 + 2;

/** A take's view as bytes: "PEV1", the stamp, u32 frames, u16 values, then the 8-bit values. */
export function encodeTakeView(view: Quantised): Uint8Array {
  const out = new Uint8Array(TAKE_HEADER_BYTES + view.data.length);
  const bits = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = TAKE_MAGIC.charCodeAt(i);
  bits.setUint32(4, viewsStamp(), true);
  bits.setUint32(8, view.frames, true);
  bits.setUint16(12, view.dim, true);
  out.set(new Uint8Array(view.data.buffer, view.data.byteOffset, view.data.length), TAKE_HEADER_BYTES);
  return out;
}

/** The view `bytes` hold, or undefined when they are not a whole one this build makes. */
export function decodeTakeView(bytes: Uint8Array): Quantised | undefined {
  if (bytes.length < TAKE_HEADER_BYTES || String.fromCharCode(...bytes.subarray(0, 4)) !== TAKE_MAGIC)
    return undefined;
  const bits = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames = bits.getUint32(8, true);
  const dim = bits.getUint16(12, true);
  if (
    bits.getUint32(4, true) !== viewsStamp() ||
    dim !== PROJECTED_VALUES ||
    frames < 1 ||
    bytes.length !== TAKE_HEADER_BYTES + frames * dim
  )
    return undefined;
  const data = new Int8Array(bytes.buffer, bytes.byteOffset + TAKE_HEADER_BYTES, frames * dim).slice();
  return { frames, dim, data, step: KEPT_VIEW_STEP };
}

const FILE_MAGIC = 'PEVS';
const FILE_FORMAT = 1;
/** Magic, u16 format, u32 stamp, u32 header length. */
const FILE_HEADER_BYTES = 4 + 2 + 4 + 4;
/** The seal every file ends with: this tag and the CRC-32 of every byte before it. */
const SEAL = 'CRC1';
const SEAL_BYTES = 8;

interface ViewsHeader {
  phrases: string[];
  /** Per view, in file order: its phrase's number and its frames. */
  views: [number, number][];
}

/**
 * A profile's takes as the encoder sees them, as one file: magic, format, stamp, a JSON
 * header (the phrases, each view's phrase and length), the views' 8-bit values, then the
 * seal. About 1.6 KB a second of enrolled speech.
 */
export function serializeEncoderViews(templates: readonly EncoderTemplate[]): Uint8Array {
  const phrases = [...new Set(templates.map((template) => template.text))];
  const header: ViewsHeader = {
    phrases,
    views: templates.map((template) => [phrases.indexOf(template.text), template.view.frames]),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const body = templates.reduce((sum, template) => sum + template.view.data.length, 0);
  const out = new Uint8Array(FILE_HEADER_BYTES + json.length + body + SEAL_BYTES);
  const bits = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = FILE_MAGIC.charCodeAt(i);
  bits.setUint16(4, FILE_FORMAT, true);
  bits.setUint32(6, viewsStamp(), true);
  bits.setUint32(10, json.length, true);
  out.set(json, FILE_HEADER_BYTES);
  let at = FILE_HEADER_BYTES + json.length;
  for (const { view } of templates) {
    out.set(new Uint8Array(view.data.buffer, view.data.byteOffset, view.data.length), at);
    at += view.data.length;
  }
  for (let i = 0; i < 4; i++) out[at + i] = SEAL.charCodeAt(i);
  bits.setUint32(at + 4, crc32(out.subarray(0, at)), true);
  return out;
}

const unreadable = (why: string): SpeechError =>
  new SpeechError('bad_model', `The voice profile's encoder views cannot be loaded: ${why}.`);

/**
 * The templates a file of {@link serializeEncoderViews} holds; undefined when another
 * encoder or projection made them (the profile works without them until it is trained
 * again). Throws for a file that is none, or damaged.
 */
export function deserializeEncoderViews(bytes: Uint8Array): EncoderTemplate[] | undefined {
  if (
    bytes.length < FILE_HEADER_BYTES + SEAL_BYTES ||
    String.fromCharCode(...bytes.subarray(0, 4)) !== FILE_MAGIC
  )
    throw unreadable('not a file of encoder views');
  const bits = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length - SEAL_BYTES;
  if (
    String.fromCharCode(...bytes.subarray(end, end + 4)) !== SEAL ||
    crc32(bytes.subarray(0, end)) !== bits.getUint32(end + 4, true)
  )
    throw unreadable('the file is damaged');
  if (bits.getUint16(4, true) !== FILE_FORMAT) throw unreadable('a format this build does not read');
  if (bits.getUint32(6, true) !== viewsStamp()) return undefined;
  const start = FILE_HEADER_BYTES + bits.getUint32(10, true);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(FILE_HEADER_BYTES, start)));
  } catch {
    throw unreadable('the header is damaged');
  }
  if (!headerValid(header)) throw unreadable('the header is damaged');
  const body = header.views.reduce((sum, [, frames]) => sum + frames * PROJECTED_VALUES, 0);
  if (start + body !== end) throw unreadable('the file is damaged');
  let at = start;
  return header.views.map(([phrase, frames]) => {
    const data = new Int8Array(bytes.buffer, bytes.byteOffset + at, frames * PROJECTED_VALUES).slice();
    at += data.length;
    const view = { frames, dim: PROJECTED_VALUES, data, step: KEPT_VIEW_STEP };
    return encoderTemplate(header.phrases[phrase] as string, view);
  });
}

function headerValid(header: unknown): header is ViewsHeader {
  if (typeof header !== 'object' || header === null) return false;
  const { phrases, views } = header as Record<string, unknown>;
  return (
    Array.isArray(phrases) &&
    phrases.every((text) => typeof text === 'string') &&
    Array.isArray(views) &&
    views.every(
      (v) =>
        Array.isArray(v) &&
        v.length === 2 &&
        Number.isInteger(v[0]) &&
        v[0] >= 0 &&
        v[0] < phrases.length &&
        Number.isInteger(v[1]) &&
        v[1] >= 1,
    )
  );
}
