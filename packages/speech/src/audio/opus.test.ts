import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Matcher } from '../decode/matcher.js';
import { concatAudio } from './audio.js';
import { RecognitionStream, type StreamEvent } from '../decode/streaming.js';
import { SpeechError } from '../errors.js';
import { trainProfile } from '../model/train.js';
import { oggOpusPackets } from '../test/ogg.js';
import { take } from '../test/phrases.js';
import {
  createOpusStreamDecoder,
  frameOpusPackets,
  MAX_OPUS_PACKET_BYTES,
  parseOpusFrames,
  type OpusStreamDecoder,
} from './opus.js';

// take(2, 5) of the test tone phrases, written as a 16 kHz WAV and encoded by Debian's
// opusenc 0.2 (libopus 1.3.1): `opusenc --bitrate 24 --framesize 20 --comp 10`, mono, 20 ms
// packets, the encoder resampling to 48 kHz internally as Chromium's encoder does.
const fixture = new Uint8Array(
  readFileSync(fileURLToPath(new URL('../test/fixtures/tone-phrase.opus', import.meta.url))),
);
const { preSkip, packets } = oggOpusPackets(fixture);
const original = take(2, 5);

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof SpeechError ? e.code : `not a SpeechError: ${String(e)}`;
  }
  return undefined;
};

/** Messages of three packets each (60 ms), framed as the browser sends them. */
const messages = (list: readonly Uint8Array[]): Uint8Array[] =>
  Array.from({ length: Math.ceil(list.length / 3) }, (_, i) =>
    frameOpusPackets(list.slice(3 * i, 3 * i + 3)),
  );

/** Frame levels in 10 ms steps, for comparing waveforms a lossy codec changed. */
const envelope = (x: Float32Array): number[] =>
  Array.from({ length: Math.floor(x.length / 160) }, (_, i) => {
    let e = 0;
    for (let k = i * 160; k < (i + 1) * 160; k++) e += (x[k] ?? 0) ** 2;
    return Math.sqrt(e / 160);
  });

function correlation(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  const ma = a.slice(0, n).reduce((s, x) => s + x, 0) / n;
  const mb = b.slice(0, n).reduce((s, x) => s + x, 0) / n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += ((a[i] as number) - ma) * ((b[i] as number) - mb);
    aa += ((a[i] as number) - ma) ** 2;
    bb += ((b[i] as number) - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

describe('parseOpusFrames', () => {
  it('splits a message into its packets and round-trips with frameOpusPackets', () => {
    const a = Uint8Array.from([0x08, 1, 2, 3]);
    const b = Uint8Array.from([0x78, 9]);
    const bytes = frameOpusPackets([a, b]);
    expect(Array.from(bytes)).toEqual([4, 0, 0x08, 1, 2, 3, 2, 0, 0x78, 9]);
    expect(parseOpusFrames(bytes).map((p) => Array.from(p))).toEqual([Array.from(a), Array.from(b)]);
    const long = new Uint8Array(300).fill(7);
    const framed = frameOpusPackets([long]);
    expect([framed[0], framed[1]]).toEqual([300 & 0xff, 300 >> 8]);
    expect(parseOpusFrames(framed)[0]).toEqual(long);
  });

  it('refuses broken framing with stable codes', () => {
    expect(codeOf(() => parseOpusFrames(new Uint8Array(0)))).toBe('empty_audio');
    expect(codeOf(() => parseOpusFrames(Uint8Array.from([4, 0, 1, 2, 3, 4, 5])))).toBe('truncated_audio');
    expect(codeOf(() => parseOpusFrames(Uint8Array.from([5, 0, 1, 2])))).toBe('truncated_audio');
    expect(codeOf(() => parseOpusFrames(Uint8Array.from([0, 0, 1, 0, 9])))).toBe('not_audio');
    const tooLong = MAX_OPUS_PACKET_BYTES + 1;
    expect(codeOf(() => parseOpusFrames(Uint8Array.from([tooLong & 0xff, tooLong >> 8, 1])))).toBe(
      'unsupported_audio',
    );
    // Containers are recognised and named rather than misread as lengths.
    expect(codeOf(() => parseOpusFrames(fixture))).toBe('not_audio');
    expect(() => parseOpusFrames(fixture)).toThrow(/Ogg/);
    expect(codeOf(() => parseOpusFrames(new TextEncoder().encode('RIFF....WAVE')))).toBe('not_audio');
  });
});

describe('createOpusStreamDecoder', () => {
  let decoder: OpusStreamDecoder;
  beforeAll(async () => {
    decoder = await createOpusStreamDecoder();
  });
  afterAll(() => decoder.free());

  it('decodes real Opus packets, sent in framed messages, to 16 kHz mono', async () => {
    await decoder.reset();
    expect(decoder.sampleRate).toBe(16000);
    const out = concatAudio(...messages(packets).map((m) => decoder.decodePackets(m)));
    // 20 ms packets at 16 kHz are 320 samples each.
    expect(out.length).toBe(packets.length * 320);
    // The encoder's look-ahead delays the signal by the pre-skip (312 at 48 kHz = 104 here).
    const delay = preSkip / 3;
    const level = correlation(envelope(original), envelope(out.subarray(delay)));
    expect(level).toBeGreaterThan(0.95);
  });

  it('decodes to the same samples message by message as all at once, and again after reset', async () => {
    await decoder.reset();
    const whole = decoder.decodeFrames(packets);
    await decoder.reset();
    const pieces = concatAudio(...messages(packets).map((m) => decoder.decodePackets(m)));
    expect(pieces).toEqual(whole);
  });

  it('feeds the recogniser: the decoded take is recognised as its phrase', async () => {
    const names = ['lights on', 'lights off', 'I am thirsty', 'goodbye'];
    const profile = trainProfile(
      names.flatMap((text, p) => [0, 1, 2].map((t) => ({ text, audio: take(p, t) }))),
    );
    await decoder.reset();
    const stream = new RecognitionStream(new Matcher(profile));
    const events: StreamEvent[] = [];
    for (const m of messages(packets)) events.push(...stream.push(decoder.decodePackets(m)));
    events.push(...stream.end());
    const finals = events.filter((e) => e.type === 'final');
    expect(finals.map((f) => f.text)).toEqual(['I am thirsty']);
  });

  it('decodes to other rates libopus offers and drops the pre-skip when asked', async () => {
    const wide = await createOpusStreamDecoder({ sampleRate: 48000, preSkip });
    try {
      const out = wide.decodeFrames(packets);
      expect(out.length).toBe(packets.length * 960 - preSkip);
    } finally {
      wide.free();
    }
    await expect(createOpusStreamDecoder({ sampleRate: 44100 })).rejects.toThrow(SpeechError);
  });

  it('refuses data libopus cannot decode, and use after free', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const own = await createOpusStreamDecoder();
      // Code 3 packet (TOC ends in binary 11) announcing zero frames: invalid by RFC 6716.
      expect(codeOf(() => own.decodePackets(frameOpusPackets([Uint8Array.from([0x0b, 0x00])])))).toBe(
        'not_audio',
      );
      expect(own.decodeFrames([])).toHaveLength(0);
      own.free();
      expect(codeOf(() => own.decodeFrames(packets))).toBe('bad_request');
      own.free();
    } finally {
      quiet.mockRestore();
    }
  });
});
