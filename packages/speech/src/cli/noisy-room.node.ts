import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { toMono16k } from '../audio/audio.js';
import { decodeWav, encodeWavPcm16 } from '../audio/wav.js';
import { inNoise } from '../eval/channels.js';
import type { ManifestEntry } from '../platform/files.node.js';
import { SAMPLE_RATE } from '../units.js';
import { hash, rng } from './seeded.js';

const run = promisify(execFile);

/**
 * How far the room's noise stands under the speaker's voice: a television across the
 * room, and one close by or a busy café.
 */
export const NOISY_ROOM_SNR_DB = [20, 10] as const;

/** The splits a person would say in a noisier room: after enrolment, never enrolment itself. */
const SPLITS = ['tune', 'test'] as const;

/** What talks in the background: a radio or television, read by espeak-ng. */
const BROADCAST = [
  'The weather this week stays mild in the south, with rain arriving on Thursday evening and clearer skies by the weekend.',
  'Our next guest has spent twenty years restoring old boats along the coast, and she has brought some photographs to show us.',
  'Add the onions to the pan and let them soften for a few minutes before you stir in the tomatoes and a little salt.',
  'The council meeting ran late last night as residents asked about the new bus timetable and the opening hours of the library.',
];
const BROADCAST_VOICES = ['en-us+m2', 'en-gb+f3', 'en-us+f2', 'en-gb-x-rp+m4'];

/** The three rooms: one other voice talking, a room of people talking, a fan or an extractor hood. */
const NOISES = ['talker', 'babble', 'appliance'] as const;
type Noise = (typeof NOISES)[number];

/** One voice reading every paragraph, in an order of its own. */
async function readAloud(voice: number, tmp: string): Promise<Float32Array> {
  const order = BROADCAST.map((_, i) => BROADCAST[(i + voice) % BROADCAST.length] as string);
  const file = `${tmp}.voice${voice}.wav`;
  await run('espeak-ng', ['-v', BROADCAST_VOICES[voice] as string, '-s', '165', '-w', file, order.join(' ')]);
  const audio = toMono16k(decodeWav(new Uint8Array(await readFile(file))));
  await rm(file, { force: true });
  return audio;
}

/** Brownish noise with a steady hum: what a fan or an extractor hood sounds like. */
function applianceNoise(seconds: number): Float32Array {
  const r = rng(hash('appliance'));
  const out = new Float32Array(Math.round(seconds * SAMPLE_RATE));
  let low = 0;
  for (let i = 0; i < out.length; i++) {
    const white = r() * 2 - 1;
    low = 0.97 * low + 0.03 * white;
    out[i] = 4 * low + 0.2 * white + 0.3 * Math.sin((2 * Math.PI * 120 * i) / SAMPLE_RATE);
  }
  return out;
}

/** Each noise as 16 kHz audio; the broadcast ones rendered with espeak-ng. */
async function makeNoises(tmp: string): Promise<Record<Noise, Float32Array>> {
  const voices = await Promise.all(BROADCAST_VOICES.map((_, v) => readAloud(v, tmp)));
  const longest = Math.max(...voices.map((v) => v.length));
  const babble = new Float32Array(longest);
  // Each voice looped to the longest and starting at its own point, so all four talk throughout.
  voices.forEach((voice, v) => {
    const shift = Math.floor((v * voice.length) / voices.length);
    for (let i = 0; i < longest; i++)
      babble[i] = (babble[i] as number) + (voice[(i + shift) % voice.length] as number);
  });
  return { talker: voices[0] as Float32Array, babble, appliance: applianceNoise(60) };
}

/** What the noisy copies depend on besides their takes: this code and the espeak-ng that read the broadcast. */
async function noiseFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const module of ['./noisy-room.node.js', './seeded.js', '../eval/channels.js'])
    hash.update(await readFile(fileURLToPath(new URL(module, import.meta.url))));
  hash.update((await run('espeak-ng', ['--version'])).stdout);
  return hash.digest('hex').slice(0, 16);
}

/**
 * The synthetic speakers heard in a noisier room than they enrolled in: each severity's
 * tuning and test takes with one of three noises added 20 and 10 dB under their voice
 * (another voice talking, as a radio or television; four voices, as a ward or a café; a
 * fan), as `tune-noise-20db.json`, `test-noise-20db.json` and the same with 10 beside its
 * manifests. Which noise, and where in
 * it the take falls, follows from the take's name. Copies are made again when their take
 * was rendered after them or this code changed.
 */
export async function writeNoisyRoom(folder: string): Promise<void> {
  const fingerprint = await noiseFingerprint();
  let noises: Record<Noise, Float32Array> | undefined;
  for (const snrDb of NOISY_ROOM_SNR_DB) {
    const audioDir = join(folder, `audio-noise-${snrDb}db`);
    await mkdir(audioDir, { recursive: true });
    const stampFile = join(audioDir, '.made-by');
    const current = await readFile(stampFile, 'utf8').then(
      (text) => text === fingerprint,
      () => false,
    );
    let made = 0;
    for (const severity of ['mild', 'moderate', 'severe']) {
      const dir = join(folder, severity);
      for (const split of SPLITS) {
        const entries = JSON.parse(await readFile(join(dir, `${split}.json`), 'utf8')) as ManifestEntry[];
        const noisy: ManifestEntry[] = [];
        for (const entry of entries) {
          const source = resolve(dir, entry.audio);
          const copy = join(audioDir, basename(source));
          const copyTime = await stat(copy).then(
            (s) => s.mtimeMs,
            () => -Infinity,
          );
          if (!current || copyTime < (await stat(source)).mtimeMs) {
            noises ??= await makeNoises(join(audioDir, '.render'));
            const r = rng(hash(basename(source)));
            const noise = noises[NOISES[Math.floor(r() * NOISES.length)] as Noise];
            const audio = toMono16k(decodeWav(await readFile(source)));
            const offset = Math.floor(r() * noise.length);
            await writeFile(copy, encodeWavPcm16(inNoise(audio, noise, snrDb, offset), SAMPLE_RATE));
            made++;
          }
          noisy.push({ ...entry, audio: relative(dir, copy) });
        }
        await writeFile(join(dir, `${split}-noise-${snrDb}db.json`), `${JSON.stringify(noisy, null, 2)}\n`);
      }
    }
    await writeFile(stampFile, fingerprint);
    console.log(
      `  ${made} takes heard ${snrDb} dB over a noisy room under ${relative(dirname(folder), audioDir)}`,
    );
  }
}
