// The shared FSDD recordings, found and read in one place so the tests on real speech agree
// on where they live and what the digits are called (Node only: it reads the shared data).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wavToMono16k } from '../audio/audio.js';

/** The digits' names, as FSDD's files number them (one list, shared with the manifests). */
export { DIGITS } from '../cli/fsdd-manifests.node.js';

/** The recordings' folder, in the shared data beside the repository (not checked in). */
export const FSDD_RECORDINGS = resolve(
  fileURLToPath(import.meta.url),
  '../../../../../../shared/data/fsdd/recordings',
);

/** Whether the shared FSDD recordings are here (tests that need them are skipped otherwise). */
export const haveFsdd = existsSync(FSDD_RECORDINGS);

/** `speaker`'s take `take` of `digit`, as recorded (cut at the word), in 16 kHz mono. */
export const fsddRecording = (digit: number, speaker: string, take: number): Float32Array =>
  wavToMono16k(new Uint8Array(readFileSync(join(FSDD_RECORDINGS, `${digit}_${speaker}_${take}.wav`))));
