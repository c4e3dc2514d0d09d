import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { toMono16k } from '../audio/audio.js';
import { decodeWav } from '../audio/wav.js';
import { inNoise } from '../eval/channels.js';
import { hash, rng } from '../seeded.js';
import { SAMPLE_RATE } from '../units.js';
import { writeHeardCopies } from './channel-copies.node.js';

const run = promisify(execFile);

/**
 * How far the room's noise stands under the speaker's voice: a television across the
 * room, and one close by or a busy café.
 */
export const NOISY_ROOM_SNR_DB = [20, 10] as const;

/** What talks in the background: a radio or television, read by espeak-ng. */
const BROADCAST = [
  'The weather this week stays mild in the south, with rain arriving on Thursday evening and clearer skies by the weekend.',
  'Our next guest has spent twenty years restoring old boats along the coast, and she has brought some photographs to show us.',
  'Add the onions to the pan and let them soften for a few minutes before you stir in the tomatoes and a little salt.',
  'The council meeting ran late last night as residents asked about the new bus timetable and the opening hours of the library.',
];
const BROADCAST_VOICES = ['en-us+m2', 'en-gb+f3', 'en-us+f2', 'en-gb-x-rp+m4'];

/** The three rooms: one other voice talking, a room of people talking, a fan or an extractor hood. */
export const NOISES = ['talker', 'babble', 'appliance'] as const;
export type Noise = (typeof NOISES)[number];

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
export async function makeNoises(tmp: string): Promise<Record<Noise, Float32Array>> {
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
  for (const module of [
    './noisy-room.node.js',
    './channel-copies.node.js',
    '../seeded.js',
    '../eval/channels.js',
  ])
    hash.update(await readFile(fileURLToPath(new URL(module, import.meta.url))));
  hash.update((await run('espeak-ng', ['--version'])).stdout);
  return hash.digest('hex').slice(0, 16);
}

/**
 * The synthetic speakers heard in a noisier room than they enrolled in: each severity's
 * tuning and test takes with one of three noises added 20 and 10 dB under their voice
 * (another voice talking, as a radio or television; four voices, as a ward or a café; a
 * fan), as `tune-noise-20db.json`, `test-noise-20db.json` and the same with 10 beside its
 * manifests. Which noise, and where in it the take falls, follows from the take's name.
 * Copies are made again when their take was rendered after them or this code changed.
 */
export async function writeNoisyRoom(folder: string): Promise<void> {
  const fingerprint = await noiseFingerprint();
  let noises: Record<Noise, Float32Array> | undefined;
  for (const snrDb of NOISY_ROOM_SNR_DB) {
    const audioDir = join(folder, `audio-noise-${snrDb}db`);
    const stampFile = join(audioDir, '.made-by');
    const current = await readFile(stampFile, 'utf8').then(
      (text) => text === fingerprint,
      () => false,
    );
    const made = await writeHeardCopies(
      folder,
      audioDir,
      `noise-${snrDb}db`,
      async (audio, takeName) => {
        noises ??= await makeNoises(join(audioDir, '.render'));
        const r = rng(hash(takeName));
        const noise = noises[NOISES[Math.floor(r() * NOISES.length)] as Noise];
        return inNoise(audio, noise, snrDb, Math.floor(r() * noise.length));
      },
      !current,
    );
    await writeFile(stampFile, fingerprint);
    console.log(
      `  ${made} takes heard ${snrDb} dB over a noisy room under ${relative(dirname(folder), audioDir)}`,
    );
  }
}
