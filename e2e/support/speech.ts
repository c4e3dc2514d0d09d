import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { encodeWavPcm16, resample, wavToMono16k } from '@parla/speech';
import { fsddTake } from '../../apps/server/test/support/audio.js';
import { EspeakEngine, type Prosody } from '../../apps/server/src/tts/espeak-engine.js';

const engine = new EspeakEngine();

/** Phrases spoken already in this test file, by phrase and options: eSpeak NG says each alike every time. */
const spoken = new Map<string, Promise<Uint8Array>>();

/**
 * A spoken phrase as a 16 kHz mono WAV with silence around it, made by the bundled
 * eSpeak NG (no system packages needed): for the fake microphone and for training takes.
 * Vary `prosody` to get takes that are alike but not identical. Each is made once per
 * file (nine takes cost about 3 s, and most files train several people on the same ones).
 */
export function phraseWav(
  text: string,
  options: Prosody & { voiceId?: string; silenceBefore?: number; silenceAfter?: number } = {},
): Promise<Uint8Array> {
  const key = JSON.stringify([text, options]);
  let wav = spoken.get(key);
  if (wav === undefined) {
    wav = speak(text, options);
    spoken.set(key, wav);
  }
  return wav;
}

async function speak(text: string, options: Parameters<typeof phraseWav>[1] = {}): Promise<Uint8Array> {
  const { voiceId = 'en-US-male', silenceBefore = 1, silenceAfter = 1.5, ...prosody } = options;
  const speech = await engine.synthesize(text, voiceId, prosody);
  const floats = Float32Array.from(speech.samples, (sample) => sample / 32768);
  const at16k = resample(floats, speech.sampleRate, 16_000);
  const padded = new Float32Array(Math.round((silenceBefore + silenceAfter) * 16_000) + at16k.length);
  padded.set(at16k, Math.round(silenceBefore * 16_000));
  return encodeWavPcm16(padded, 16_000);
}

/** Writes `phraseWav` to a file (Chromium's fake microphone reads a path). */
export async function writePhraseWav(
  file: string,
  text: string,
  options: Parameters<typeof phraseWav>[1] = {},
) {
  writeFileSync(file, await phraseWav(text, options));
  return file;
}

/**
 * The fake microphone of one test file: `write` makes its WAV before the harness launches
 * Chromium, which reads the file at start, so call this before `usePagePerTest`. The file
 * is removed after the tests. Returns its path.
 */
export function fakeMicrophone(name: string, write: (file: string) => Promise<unknown>): string {
  const workDir = path.join(tmpdir(), `parla-${name}-${process.pid}`);
  const file = path.join(workDir, 'microphone.wav');
  beforeAll(async () => {
    mkdirSync(workDir, { recursive: true });
    await write(file);
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));
  return file;
}

/** A real voice: `speaker`'s FSDD take `take` of `digit`, with `before` and `after` seconds of
 * silence around it, as a 16 kHz WAV. */
export function fsddDigitWav(speaker: string, digit: number, take: number, before: number, after: number) {
  const speech = wavToMono16k(fsddTake(digit, speaker, take));
  const padded = new Float32Array(Math.round((before + after) * 16_000) + speech.length);
  padded.set(speech, Math.round(before * 16_000));
  return encodeWavPcm16(padded, 16_000);
}
