import { readFileSync } from 'node:fs';
import { downmix } from '@parla/speech';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { decodeAudioFile } from './audio-decoding.js';

// "Yes please", 1.54 s, the same recording in each format (made with ffmpeg from take.wav;
// the mu-law and A-law WAVs with sox, at the telephone's 8 kHz).
const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../test/fixtures/audio/${name}`, import.meta.url)));

const seconds = (audio: { sampleRate: number; channels: Float32Array[] }) =>
  (audio.channels[0]?.length ?? 0) / audio.sampleRate;

/** Loudness of the whole file, dBFS RMS. */
function loudness(samples: Float32Array) {
  let energy = 0;
  for (const sample of samples) energy += sample * sample;
  return 10 * Math.log10(energy / samples.length);
}

describe('decodeAudioFile', () => {
  const reference = fixture('take.wav');

  it.each([
    ['Yes please.m4a', 'AAC in MP4, as Voice Memos exports'],
    ['lossless.m4a', 'Apple Lossless'],
    ['take.caf', 'Core Audio Format'],
    ['take.mp3', 'MP3'],
    ['take.ogg', 'Ogg Opus'],
    ['take.webm', 'WebM Opus, as browsers record'],
    ['take.flac', 'FLAC'],
    ['take.aiff', 'AIFF'],
    ['take-mulaw.wav', 'mu-law WAV, as telephone systems and voicemail export'],
    ['take-alaw.wav', 'A-law WAV, the same outside North America and Japan'],
  ])('reads %s (%s) as the same sound as the WAV', async (name) => {
    const wav = await decodeAudioFile(reference);
    const other = await decodeAudioFile(fixture(name));
    // Encoders add a little padding at the ends; the sound itself is the same length.
    expect(seconds(other)).toBeGreaterThan(seconds(wav) - 0.05);
    expect(seconds(other)).toBeLessThan(seconds(wav) + 0.1);
    expect(Math.abs(loudness(downmix(other)) - loudness(downmix(wav)))).toBeLessThan(1.5);
  });

  it('refuses what is not audio, saying what is accepted', async () => {
    const refusal = decodeAudioFile(new TextEncoder().encode('%PDF-1.7 this is a document, not a recording'));
    await expect(refusal).rejects.toBeInstanceOf(AppError);
    await expect(refusal).rejects.toMatchObject({
      status: 415,
      message: expect.stringContaining('M4A') as unknown,
    });
  });

  it('refuses an empty file and a truncated one', async () => {
    await expect(decodeAudioFile(new Uint8Array(0))).rejects.toMatchObject({ status: 400 });
    await expect(decodeAudioFile(reference.subarray(0, 30))).rejects.toMatchObject({ status: 400 });
    const m4a = fixture('Yes please.m4a');
    await expect(decodeAudioFile(m4a.subarray(0, 200))).rejects.toBeInstanceOf(AppError);
  });
});
