import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeWavPcm16 } from '@parla/speech';

/** The real-speech development set, beside the repository (see shared/data/fsdd/README.md). */
export const FSDD_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../shared/data/fsdd/recordings',
);

/** A take of the Free Spoken Digit Dataset: digit 0-9, speaker, take 0-49. */
export function fsddTake(digit: number, speaker: string, take: number): Uint8Array {
  // Say what is missing rather than fail on a file name: a clone elsewhere lacks the data.
  if (!existsSync(FSDD_DIR))
    throw new Error(
      `These tests train on real speech: the FSDD recordings belong at ${FSDD_DIR}, the shared data folder beside the repository.`,
    );
  return new Uint8Array(readFileSync(path.join(FSDD_DIR, `${digit}_${speaker}_${take}.wav`)));
}

export const DIGIT_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** A tone of the given length and level, as 16 kHz PCM16 WAV. */
export function toneWav(seconds: number, amplitude: number, hz = 220): Uint8Array {
  const samples = new Float32Array(Math.round(seconds * 16_000));
  for (let i = 0; i < samples.length; i += 1)
    samples[i] = amplitude * Math.sin((2 * Math.PI * hz * i) / 16_000);
  return encodeWavPcm16(samples, 16_000);
}
