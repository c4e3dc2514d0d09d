import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { toMono16k } from '../audio/audio.js';
import { decodeWav, encodeWavPcm16 } from '../audio/wav.js';
import { SAMPLE_RATE } from '../units.js';
import { ENROLLED_PHRASES, ENROLLED_WORDS, UNENROLLED_PHRASES, UNENROLLED_WORDS } from './phrases.js';
import { addRoomTone } from '../audio/as-recorded.js';
import { rmsOf } from '../eval/channels.js';
import { between, hash, rng } from '../seeded.js';

const run = promisify(execFile);

/** How atypical a synthetic speaker is. */
export type Severity = 'mild' | 'moderate' | 'severe';

export interface SpeakerSpec {
  id: string;
  severity: Severity;
  voice: string;
  /** Speaker-level vocal tract change: resampling factor (formants and pitch together). */
  formant: number;
  pitch: number;
}

/** Two speakers per severity, each on a different voice and vocal tract. */
export const SPEAKERS: SpeakerSpec[] = [
  { id: 'syn-mild-1', severity: 'mild', voice: 'en-us+m3', formant: 1.0, pitch: 45 },
  { id: 'syn-mild-2', severity: 'mild', voice: 'en-gb+f2', formant: 1.04, pitch: 60 },
  { id: 'syn-moderate-1', severity: 'moderate', voice: 'en-gb-scotland+m1', formant: 0.95, pitch: 40 },
  { id: 'syn-moderate-2', severity: 'moderate', voice: 'en-029+f4', formant: 1.06, pitch: 65 },
  { id: 'syn-severe-1', severity: 'severe', voice: 'en-gb-x-rp+m7', formant: 0.93, pitch: 35 },
  { id: 'syn-severe-2', severity: 'severe', voice: 'en-us+f5', formant: 1.05, pitch: 55 },
];

interface SeverityProfile {
  wpm: [number, number];
  wordGap: [number, number];
  tempoJitter: number;
  pitchJitterCents: number;
  tremolo: [number, number] | null;
  lowpass: number | null;
  snrDb: [number, number];
  reverb: number;
  /** Chance of one long hesitation inside the phrase, and its length range in ms. */
  hesitation: [number, number, number];
}

const SEVERITY: Record<Severity, SeverityProfile> = {
  mild: {
    wpm: [145, 165],
    wordGap: [0, 3],
    tempoJitter: 0.05,
    pitchJitterCents: 40,
    tremolo: null,
    lowpass: null,
    snrDb: [28, 34],
    reverb: 10,
    hesitation: [0, 0, 0],
  },
  moderate: {
    wpm: [105, 125],
    wordGap: [6, 12],
    tempoJitter: 0.1,
    pitchJitterCents: 90,
    tremolo: [5, 25],
    lowpass: 3800,
    snrDb: [18, 24],
    reverb: 30,
    hesitation: [0.3, 120, 200],
  },
  severe: {
    wpm: [80, 100],
    wordGap: [12, 20],
    tempoJitter: 0.15,
    pitchJitterCents: 160,
    tremolo: [6, 45],
    lowpass: 2600,
    snrDb: [12, 17],
    reverb: 50,
    hesitation: [0.6, 150, 260],
  },
};

/**
 * How a later session differs from the day the speaker enrolled: a little slower and
 * higher, in a noisier, more reverberant room. Rules tuned on takes recorded right after
 * enrolment proved too tight for later ones on real speech (FSDD), so one tuning split is
 * rendered as another day.
 */
interface Session {
  pitch: number;
  rate: number;
  snrDb: number;
  reverb: number;
  /** Tremolo depth as a multiple of the severity's. */
  tremor: number;
  /** Added to the severity's chance of a hesitation inside the phrase. */
  hesitation: number;
}
const ENROLMENT_DAY: Session = { pitch: 0, rate: 1, snrDb: 0, reverb: 0, tremor: 1, hesitation: 0 };
const LATER_DAY: Session = { pitch: 6, rate: 0.92, snrDb: -4, reverb: 20, tremor: 1, hesitation: 0 };
const MONTHS = ['month-2', 'month-4', 'month-6'] as const;
type Month = (typeof MONTHS)[number];
/**
 * Two, four and six months after enrolment, for a speaker whose condition progresses (as
 * ALS and Parkinson's do): each time slower, lower and softer (the room's noise the same,
 * so the voice stands less above it), with a deeper tremor and more hesitations. Learning
 * from use has to follow this, or the profile of the enrolment day stops understanding.
 */
const MONTHS_LATER: Record<Month, Session> = {
  'month-2': { pitch: -4, rate: 0.9, snrDb: -2, reverb: 0, tremor: 1.25, hesitation: 0.1 },
  'month-4': { pitch: -8, rate: 0.82, snrDb: -4, reverb: 0, tremor: 1.5, hesitation: 0.2 },
  'month-6': { pitch: -12, rate: 0.75, snrDb: -6, reverb: 0, tremor: 1.75, hesitation: 0.3 },
};

/** Speak one take with espeak-ng, distort it with sox, then add room noise and silence around it. */
async function renderTake(
  spec: SpeakerSpec,
  text: string,
  take: number,
  file: string,
  tmp: string,
  day: Session = ENROLMENT_DAY,
): Promise<void> {
  const sev = SEVERITY[spec.severity];
  const r = rng(hash(`${spec.id}|${text}|${take}`));
  const words = text.split(' ');
  let ssml = words.join(' ');
  if (r() < sev.hesitation[0] + day.hesitation && words.length > 1) {
    const at = 1 + Math.floor(r() * (words.length - 1));
    const ms = Math.round(between(r, [sev.hesitation[1], sev.hesitation[2]]));
    ssml = `${words.slice(0, at).join(' ')} <break time="${ms}ms"/> ${words.slice(at).join(' ')}`;
  }
  const raw = `${tmp}.raw.wav`;
  await run('espeak-ng', [
    '-m',
    '-v',
    spec.voice,
    '-s',
    String(Math.round(between(r, sev.wpm) * day.rate)),
    '-p',
    String(Math.round(spec.pitch + day.pitch + (r() - 0.5) * 10)),
    '-g',
    String(Math.round(between(r, sev.wordGap))),
    '-w',
    raw,
    `<speak>${ssml}</speak>`,
  ]);
  const effects = [
    'speed',
    String(spec.formant),
    'pitch',
    String(Math.round((r() * 2 - 1) * sev.pitchJitterCents)),
    'tempo',
    '-s',
    (1 + (r() * 2 - 1) * sev.tempoJitter).toFixed(3),
  ];
  if (sev.tremolo !== null)
    effects.push(
      'tremolo',
      between(r, [sev.tremolo[0] - 1, sev.tremolo[0] + 1]).toFixed(2),
      String(Math.round(sev.tremolo[1] * day.tremor)),
    );
  if (sev.lowpass !== null) effects.push('lowpass', String(Math.round(sev.lowpass * (0.9 + 0.2 * r()))));
  if (sev.reverb + day.reverb > 0) effects.push('reverb', String(Math.min(100, sev.reverb + day.reverb)));
  effects.push('channels', '1', 'rate', String(SAMPLE_RATE), 'gain', '-n', (-3 - 9 * r()).toFixed(1));
  const shaped = `${tmp}.fx.wav`;
  // -R: sox dithers with a random seed otherwise, and every build of the set would differ.
  await run('sox', ['-R', raw, '-b', '16', shaped, ...effects]);
  const speech = toMono16k(decodeWav(new Uint8Array(await readFile(shaped))));
  await rm(raw, { force: true });
  await rm(shaped, { force: true });
  const lead = Math.round(between(r, [0.25, 0.5]) * SAMPLE_RATE);
  const tail = Math.round(between(r, [0.45, 0.7]) * SAMPLE_RATE);
  const out = new Float32Array(lead + speech.length + tail);
  out.set(speech, lead);
  const noiseRms = rmsOf(speech) / 10 ** ((between(r, sev.snrDb) + day.snrDb) / 20);
  addRoomTone(out, noiseRms, r);
  // Written beside and renamed: a take cut short by an interrupted run is never kept.
  await writeFile(`${tmp}.out.wav`, encodeWavPcm16(out, SAMPLE_RATE));
  await rename(`${tmp}.out.wav`, file);
}

/**
 * What every take depends on besides its own name: this generator's code and the audio
 * code it calls, the phrase lists and the versions of espeak-ng and sox. Takes rendered
 * under the same fingerprint are the same files, so a rebuild keeps them.
 */
async function rendererFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  const modules = [
    './synthetic.node.js',
    './phrases.js',
    '../seeded.js',
    '../audio/as-recorded.js',
    '../audio/audio.js',
    '../audio/wav.js',
    '../audio/resample.js',
  ];
  for (const module of modules) hash.update(await readFile(fileURLToPath(new URL(module, import.meta.url))));
  for (const tool of ['espeak-ng', 'sox']) hash.update((await run(tool, ['--version'])).stdout);
  return hash.digest('hex');
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Takes per enrolled phrase: 0-2 enrolment, 3-4 tuning, 5-7 test, 8-9 tuning on a later
 * day, then two each two, four and six months on (10-11, 12-13, 14-15; phrases only, not
 * the single words). Unenrolled: 0-1 tuning, 2-4 test, 5-6 tuning on a later day, then
 * 7-8, 9-10 and 11-12 months on. */
const ENROL_TAKES = [0, 1, 2];
const TUNE_TAKES = [3, 4];
const TEST_TAKES = [5, 6, 7];
const LATER_TUNE_TAKES = [8, 9];
const MONTHS_TAKES: Record<Month, number[]> = {
  'month-2': [10, 11],
  'month-4': [12, 13],
  'month-6': [14, 15],
};
const OOV_TUNE = [0, 1];
const OOV_TEST = [2, 3, 4];
const OOV_LATER_TUNE = [5, 6];
const OOV_MONTHS_TAKES: Record<Month, number[]> = {
  'month-2': [7, 8],
  'month-4': [9, 10],
  'month-6': [11, 12],
};

/** Which manifest a take goes to; the months are tuning takes too. */
export type Split = 'enroll' | 'tune' | 'test' | 'tune-later' | Month;

/** How each split's session differs from the enrolment day (the others are said on it). */
const SESSION_OF: Partial<Record<Split, Session>> = { 'tune-later': LATER_DAY, ...MONTHS_LATER };

/** One synthetic take: who says what, where its audio goes and which manifest lists it. */
export interface RenderedTake {
  spec: SpeakerSpec;
  text: string;
  take: number;
  file: string;
  split: Split;
  /** A single word, only in the words sets. */
  word: boolean;
}

/** Render the synthetic atypical speakers' takes under `folder/audio`; returns every take. */
export async function generateSynthetic(
  folder: string,
  concurrency = 2,
  fresh = false,
): Promise<RenderedTake[]> {
  const audioDir = join(folder, 'audio');
  await mkdir(audioDir, { recursive: true });
  // Takes already rendered by this very generator are kept; anything else renders them all.
  const fingerprint = await rendererFingerprint();
  const stampFile = join(audioDir, '.rendered-by');
  const reuse = !fresh && (await readFile(stampFile, 'utf8').catch(() => '')) === fingerprint;
  if (!reuse) await rm(stampFile, { force: true });
  const jobs: RenderedTake[] = [];
  const slug = (t: string): string => t.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const known = [
    ...ENROLLED_PHRASES.map((text) => ({ text, word: false })),
    ...ENROLLED_WORDS.map((text) => ({ text, word: true })),
  ];
  const unknown = [
    ...UNENROLLED_PHRASES.map((text) => ({ text, word: false })),
    ...UNENROLLED_WORDS.map((text) => ({ text, word: true })),
  ];
  for (const spec of SPEAKERS) {
    const add = (text: string, word: boolean, take: number, split: Split): void => {
      jobs.push({
        spec,
        text,
        take,
        split,
        word,
        file: join(audioDir, `${spec.id}_${slug(text)}_${take}.wav`),
      });
    };
    for (const { text, word } of known) {
      for (const take of [...ENROL_TAKES, ...TUNE_TAKES, ...TEST_TAKES, ...LATER_TUNE_TAKES]) {
        const split: Split = ENROL_TAKES.includes(take)
          ? 'enroll'
          : TUNE_TAKES.includes(take)
            ? 'tune'
            : TEST_TAKES.includes(take)
              ? 'test'
              : 'tune-later';
        add(text, word, take, split);
      }
      if (!word)
        for (const month of MONTHS) for (const take of MONTHS_TAKES[month]) add(text, word, take, month);
    }
    for (const { text, word } of unknown) {
      for (const take of [...OOV_TUNE, ...OOV_TEST, ...OOV_LATER_TUNE])
        add(
          text,
          word,
          take,
          OOV_TUNE.includes(take) ? 'tune' : OOV_TEST.includes(take) ? 'test' : 'tune-later',
        );
      if (!word)
        for (const month of MONTHS) for (const take of OOV_MONTHS_TAKES[month]) add(text, word, take, month);
    }
  }
  let next = 0;
  let done = 0;
  let kept = 0;
  const worker = async (w: number): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++];
      if (job === undefined) return;
      if (reuse && (await exists(job.file))) {
        kept++;
        continue;
      }
      const day = SESSION_OF[job.split] ?? ENROLMENT_DAY;
      await renderTake(job.spec, job.text, job.take, job.file, join(audioDir, `.tmp-${w}`), day);
      done++;
      if (done % 500 === 0) console.log(`  ${done}/${jobs.length} synthetic takes`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  await writeFile(stampFile, fingerprint);
  if (kept > 0)
    console.log(
      `  ${kept} of ${jobs.length} synthetic takes were already rendered (--fresh renders them again)`,
    );
  return jobs;
}
