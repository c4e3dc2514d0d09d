import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { concatAudio, toMono16k } from '../audio/audio.js';
import { decodeWav } from '../audio/wav.js';
import { Matcher } from '../decode/matcher.js';
import { RecognitionStream, type StreamEvent } from '../decode/streaming.js';
import { forKnownVoice } from '../eval/evaluate.js';
import { AnsweredStream } from '../generic/answered-stream.js';
import type { SecondOpinion } from '../generic/second-opinion.js';
import {
  LATE_ANSWER,
  sayInStream,
  scoreStream,
  type SaidSpan,
  type StreamFinal,
  type StreamScore,
} from '../eval/continuous.js';
import { ListeningRoom } from '../vad/room-noise.js';
import { asRecorded } from '../audio/as-recorded.js';
import { narrowBand, rmsOf } from '../eval/channels.js';
import { between, hash, rng } from '../seeded.js';
import { normaliseText } from '../model/profile.js';
import { trainProfile } from '../model/train.js';
import { loadManifest } from '../platform/files.node.js';
import { loadSoundSwallower } from '../platform/soundswallower.node.js';
import { productGenericTrial } from '../platform/voice-adaptation.node.js';
import { CHUNK_SAMPLES, SAMPLE_RATE } from '../units.js';
import { commandLine } from './command-line.js';
import { makeNoises, NOISES, type Noise } from './noisy-room.node.js';

/** The rooms a speaker's stream is said in: their own, a noisy room, or real people talking. */
type Room = 'own room' | Noise | 'people';

/**
 * `speech:rooms`: each synthetic speaker's tuning phrases (`--test`: its test phrases, once
 * a choice is made), known and unknown, said one after another in one live stream, 2-4 s
 * apart, in their own room and with the room talking or humming under them all the time,
 * as a radio, a television or a fan does: what the stream's finals make of them
 * (docs/decisions/0074, 0075). FSDD's speakers are users too, each with the other five
 * as the room's people: real voices under a real voice, single words among the room's
 * (docs/decisions/0081). `speech:eval` cannot show this: each of its files is one phrase,
 * so each utterance starts with the file. The generic path hears finals again as in the
 * product, for a voice it knows (FSDD's speakers: 0107); `--personal-only` leaves it out.
 */
const packageRoot = resolve(fileURLToPath(import.meta.url), '../../..');
const USAGE =
  'usage: npm run speech:rooms -- [--snr DB] [--phrases N] [--steady-floor] [--test] [--press carry|alone [--lead S]] [--fsdd DIR] [--users all|fsdd|synthetic] [--fsdd-takes 1|3|5] [--personal-only]';
const { values } = commandLine(
  {
    options: {
      snr: { type: 'string', default: '20' },
      phrases: { type: 'string', default: '30' },
      // The end-pointer as it was before it learnt the talking room's level (0075), to compare.
      'steady-floor': { type: 'boolean', default: false },
      // The test takes instead: once, after a choice is made on the tuning takes.
      test: { type: 'boolean', default: false },
      // Press to talk: each phrase in a stream of its own, from `lead` to a second more
      // before it to its first final (as the app stops listening then), `PRESS_PATIENCE`
      // after it or the next press, whichever comes first; `carry` hands each press's room
      // to the next as a session does, `alone` does not (0076, 0094).
      press: { type: 'string' },
      // 0.5 s; 2 s is a person who takes their time after pressing (0077).
      lead: { type: 'string', default: '0.5' },
      fsdd: { type: 'string', default: resolve(packageRoot, '../../../shared/data/fsdd') },
      // Who the users are: the synthetic speakers, FSDD's, or both; and how many takes of
      // each digit FSDD's enrol (one-take profiles are judged on another rule, 0085).
      users: { type: 'string', default: 'all' },
      'fsdd-takes': { type: 'string', default: '3' },
      // The profile alone: without the generic path hearing finals again for a voice it
      // knows, as the product does (0102-0107).
      'personal-only': { type: 'boolean', default: false },
    },
  },
  USAGE,
);
const snrDb = Number(values.snr);
const count = Number(values.phrases);
const press = values.press;
const lead = Number(values.lead);
const who = values.users;
const fsddTakes = values['fsdd-takes'];
if (
  !['all', 'fsdd', 'synthetic'].includes(who) ||
  !['1', '3', '5'].includes(fsddTakes) ||
  !Number.isFinite(snrDb) ||
  !(lead >= 0) ||
  !Number.isInteger(count) ||
  count < 1 ||
  (press !== undefined && press !== 'carry' && press !== 'alone')
) {
  console.error(USAGE);
  process.exit(2);
}

/** How long after their phrase a person pressing to talk waits for an answer. */
const PRESS_PATIENCE = 4;

const soundSwallower = values['personal-only'] ? undefined : await loadSoundSwallower();

const tmp = await mkdtemp(join(tmpdir(), 'parla-rooms-'));
const noises: Partial<Record<Room, Float32Array>> = await makeNoises(join(tmp, 'noise'));
await rm(tmp, { recursive: true, force: true });
const voices = await recordedVoices(values.fsdd);
noises.people = peopleTalking(voices);
const rooms: readonly Room[] = [
  'own room',
  ...NOISES,
  ...(noises.people === undefined ? [] : ['people' as const]),
];
if (noises.people === undefined) console.log(`(no FSDD recordings under ${values.fsdd}: no room of people)`);

/**
 * FSDD's six speakers' digits in a fixed shuffled order, each recording with its own
 * silences and its speaker (takes 5-9: never FSDD's test takes, 10-29).
 */
async function recordedVoices(fsdd: string): Promise<{ speaker: string; audio: Float32Array }[]> {
  const folder = join(fsdd, 'recordings');
  const r = rng(hash('people'));
  const names = (await readdir(folder).catch(() => [] as string[]))
    .filter((f) => /^\d_[a-z]+_[5-9]\.wav$/.test(f))
    .sort() // the shuffle must not depend on the order the folder lists them in
    .map((f) => ({ f, key: r() }))
    .sort((a, b) => a.key - b.key)
    .map(({ f }) => f);
  return Promise.all(
    names.map(async (f) => ({
      speaker: f.split('_')[1] as string,
      audio: toMono16k(decodeWav(new Uint8Array(await readFile(join(folder, f))))),
    })),
  );
}

/** Real voices talking: those recordings one after another, but `without`'s. */
function peopleTalking(
  recordings: readonly { speaker: string; audio: Float32Array }[],
  without?: string,
): Float32Array | undefined {
  const parts = recordings.filter((v) => v.speaker !== without).map((v) => v.audio);
  return parts.length === 0 ? undefined : concatAudio(...parts);
}

/** A stream's score, and the share of its time the room was said to be too loud. */
/** With the share of the stream (or of the presses) the room was said to be too loud, and how
 * many times the notice came on. */
type RoomScore = StreamScore & { tooLoud: number; noticeShown: number };

/**
 * Who the users are (`--users`): the synthetic speakers by severity, whose takes keep their
 * own room at both ends, and FSDD's speakers (digits zero to seven enrolled, three takes
 * each unless `--fsdd-takes` says; "eight" and "nine" unknown), whose recordings are cut
 * to the word.
 */
const users = [
  ...(who === 'fsdd' ? [] : ['mild', 'moderate', 'severe']).map((severity) => {
    const folder = join(packageRoot, '.data', 'synthetic', severity);
    return {
      group: severity,
      enrol: join(folder, 'enroll.json'),
      takes: join(folder, values.test ? 'test.json' : 'tune.json'),
    };
  }),
  ...(noises.people === undefined || who === 'synthetic' ? [] : [fsddUsers(join(packageRoot, '.data'))]),
];

/**
 * An FSDD recording as the app would have recorded it (`asRecorded`), a quiet room 40 dB
 * under the word, heard as the word was, through an 8 kHz channel.
 */
function asRecordedByPhone(word: Float32Array, seed: string): Float32Array {
  return narrowBand(asRecorded(word, rmsOf(word) / 100, rng(hash(seed))));
}

function fsddUsers(data: string): { group: string; enrol: string; takes: string } {
  const folder = join(data, values.test ? 'fsdd-oov' : 'fsdd-oov-tune', `k${fsddTakes}`);
  return { group: 'fsdd', enrol: join(folder, 'enroll.json'), takes: join(folder, 'test.json') };
}

const totals = new Map<string, RoomScore[]>();
for (const { group, enrol: enrolPath, takes: takesPath } of users) {
  const enrol = await loadManifest(enrolPath);
  const takes = await loadManifest(takesPath);
  const fsdd = group === 'fsdd';
  for (const speaker of [...new Set(enrol.map((e) => e.speaker))].sort()) {
    const mine = enrol
      .filter((e) => e.speaker === speaker)
      .map((e, i) => (fsdd ? { ...e, audio: asRecordedByPhone(e.audio, `${speaker} enrolled ${i}`) } : e));
    const vocabulary = new Set(mine.map((e) => normaliseText(e.text)));
    const matcher = new Matcher(trainProfile(mine.map((e) => ({ text: e.text, audio: e.audio }))));
    // The generic path hears their finals again, where it knows their voice, in every room.
    const module = soundSwallower;
    const generic =
      module === undefined ? undefined : await forKnownVoice(productGenericTrial(module), mine, mine);
    const r = rng(hash(speaker));
    // A fixed shuffled choice of the speaker's takes, known and unknown alike.
    const said = takes
      .filter((t) => t.speaker === speaker)
      .map((t, i) => ({ t, i, key: r() }))
      .sort((a, b) => a.key - b.key)
      .slice(0, count)
      .map(({ t, i }) => ({
        text: t.text,
        audio: fsdd ? asRecordedByPhone(t.audio, `${speaker} said ${i}`) : t.audio,
        known: vocabulary.has(normaliseText(t.text)),
      }));
    const gaps = [...said.map(() => between(r, [2, 4])), 2];
    // An FSDD speaker's room of people is the other five.
    const people = fsdd ? peopleTalking(voices, speaker) : noises.people;
    for (const room of rooms) {
      const noise = room === 'own room' ? undefined : room === 'people' ? people : noises[room];
      const { audio, spans } = sayInStream(
        said,
        gaps,
        noise === undefined ? undefined : { noise, snrDb, offset: Math.floor(r() * noise.length) },
        // The takes' own room goes on between them: their first 0.25 s and last 0.45 s at
        // least are that room alone (synthetic.node.ts, `asRecordedByPhone`).
        { edge: 0.2, random: rng(hash(`${speaker} room tone`)) },
      );
      // FSDD's speakers speak through an 8 kHz channel, and their room comes through it
      // with them: a full-band room would fill the bands their templates hold empty.
      const heard = fsdd ? narrowBand(audio) : audio;
      const score =
        press === undefined
          ? heardLive(matcher, generic, heard, spans)
          : heardPressing(matcher, generic, heard, spans, press, rng(hash(`${speaker} presses`)));
      const key = `${group} ${room}`;
      totals.set(key, [...(totals.get(key) ?? []), score]);
      console.log(`${speaker.padEnd(16)} ${room.padEnd(9)} ${describe(score)}`);
    }
    generic?.delete();
  }
}

/** One live stream over the whole recording, as hands-free listening hears it. */
function heardLive(
  matcher: Matcher,
  generic: SecondOpinion | undefined,
  audio: Float32Array,
  spans: readonly SaidSpan[],
): RoomScore {
  const stream = new AnsweredStream(
    new RecognitionStream(matcher, values['steady-floor'] ? { endpointer: { busyAfter: undefined } } : {}),
    () => generic,
  );
  const finals: StreamFinal[] = [];
  // How long the stream said the room was too loud to hear the speaker over (0076).
  let tooLoudSince: number | undefined;
  let tooLoud = 0;
  let noticeShown = 0;
  const keep = (events: StreamEvent[], pushed: number): void => {
    for (const e of events) {
      if (e.type === 'final')
        finals.push({ text: e.text, start: e.start, end: e.end, heardAt: pushed / SAMPLE_RATE });
      if (e.type === 'room-noise' && e.tooLoud) {
        tooLoudSince = pushed;
        noticeShown++;
      }
      if (e.type === 'room-noise' && !e.tooLoud) {
        tooLoud += pushed - (tooLoudSince ?? pushed);
        tooLoudSince = undefined;
      }
    }
  };
  for (let i = 0; i < audio.length; i += CHUNK_SAMPLES)
    keep(
      stream.push(audio.subarray(i, i + CHUNK_SAMPLES)).answered,
      Math.min(audio.length, i + CHUNK_SAMPLES),
    );
  keep(stream.end().answered, audio.length);
  tooLoud += audio.length - (tooLoudSince ?? audio.length);
  return { ...scoreStream(spans, finals), tooLoud: tooLoud / audio.length, noticeShown };
}

/**
 * Press to talk: a stream a phrase, ended at its first final. Each press answers for its
 * own phrase alone: a press begun in the last take's trailing room tone may give a final
 * that reaches back over that take, and it is no answer to it.
 * `tooLoud` is then the share of presses during or after which the notice stood.
 */
function heardPressing(
  matcher: Matcher,
  generic: SecondOpinion | undefined,
  audio: Float32Array,
  spans: readonly SaidSpan[],
  mode: 'carry' | 'alone',
  random: () => number,
): RoomScore {
  const session = new ListeningRoom();
  const scores: RoomScore[] = [];
  const lengths: number[] = [];
  let loudPresses = 0;
  let noticeShown = 0;
  // Never before the last take has ended: nobody presses while still saying the last one.
  const pressesAt = spans.map((span, k) =>
    Math.max(spans[k - 1]?.end ?? 0, span.start - between(random, [lead, lead + 1])),
  );
  for (const [k, span] of spans.entries()) {
    const finals: StreamFinal[] = [];
    const pressAt = pressesAt[k] as number;
    const from = Math.round(pressAt * SAMPLE_RATE);
    // A press that has not answered by the next press is over: pressing again starts anew,
    // and the next phrase is the next press's to answer, not a room's word in this one.
    const until = Math.min(
      audio.length,
      Math.round(Math.min(span.end + PRESS_PATIENCE, pressesAt[k + 1] ?? Infinity) * SAMPLE_RATE),
    );
    const stream = new AnsweredStream(
      new RecognitionStream(matcher, mode === 'carry' ? { room: session } : {}),
      () => generic,
    );
    // Set within `keep`, which the loop below calls.
    const heard = { loud: false, answered: false };
    const keep = (events: StreamEvent[], pushed: number): void => {
      for (const e of events) {
        if (e.type === 'final') {
          const at = from / SAMPLE_RATE;
          finals.push({ text: e.text, start: at + e.start, end: at + e.end, heardAt: pushed / SAMPLE_RATE });
          heard.answered = true;
        }
        if (e.type === 'room-noise' && e.tooLoud) {
          heard.loud = true;
          noticeShown++;
        }
      }
    };
    let i = from;
    for (; i < until && !heard.answered; i += CHUNK_SAMPLES)
      keep(
        stream.push(audio.subarray(i, Math.min(until, i + CHUNK_SAMPLES))).answered,
        Math.min(until, i + CHUNK_SAMPLES),
      );
    keep(stream.end().answered, Math.min(until, i));
    scores.push({ ...scoreStream([span], finals), tooLoud: 0, noticeShown: 0 });
    lengths.push(...finals.map((f) => f.end - f.start));
    if (heard.loud || (mode === 'carry' && session.judge.tooLoud)) loudPresses++;
  }
  return {
    ...sum(scores),
    medianLength: quantile(lengths, 0.5) ?? 0,
    tooLoud: loudPresses / Math.max(1, spans.length),
    noticeShown,
  };
}

console.log(`\nSeverity and room, every speaker together (${snrDb} dB under them where the room sounds):`);
for (const [key, scores] of totals) console.log(`${key.padEnd(19)} ${describe(sum(scores))}`);

/** The speakers' scores added up; the median utterance is the median of their medians. */
function sum(scores: RoomScore[]): RoomScore {
  const add = (pick: (s: RoomScore) => number): number => scores.reduce((n, s) => n + pick(s), 0);
  const lengths = scores.map((s) => s.medianLength).sort((a, b) => a - b);
  return {
    understood: add((s) => s.understood),
    known: add((s) => s.known),
    mistaken: add((s) => s.mistaken),
    unknownAccepted: add((s) => s.unknownAccepted),
    unknown: add((s) => s.unknown),
    roomFinals: add((s) => s.roomFinals),
    roomAccepted: add((s) => s.roomAccepted),
    finals: add((s) => s.finals),
    medianLength: lengths[Math.floor(lengths.length / 2)] ?? 0,
    delays: scores.flatMap((s) => s.delays),
    answeredLate: add((s) => s.answeredLate),
    unanswered: add((s) => s.unanswered),
    tooLoud: add((s) => s.tooLoud) / Math.max(1, scores.length),
    noticeShown: add((s) => s.noticeShown),
  };
}

function quantile(values: readonly number[], share: number): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(share * (sorted.length - 1))];
}

function seconds(s: number | undefined): string {
  return s === undefined ? '-' : `${s.toFixed(1)} s`;
}

function describe(s: RoomScore): string {
  const pct = (n: number, of: number): string => `${of > 0 ? ((100 * n) / of).toFixed(1) : '-'} %`;
  return [
    `understood ${pct(s.understood, s.known).padStart(7)} (${s.understood}/${s.known})`,
    `mistaken ${s.mistaken}`,
    `unknown accepted ${pct(s.unknownAccepted, s.unknown)}`,
    `finals ${s.finals}, ${s.roomFinals} on the room alone (${s.roomAccepted} accepted)`,
    `median utterance ${s.medianLength.toFixed(1)} s`,
    `too loud ${(100 * s.tooLoud).toFixed(0)} % of the ${press === undefined ? 'time' : 'presses'} (shown ${s.noticeShown} times)`,
    `right final ${seconds(quantile(s.delays, 0.5))} after the recording ended (95th percentile ${seconds(quantile(s.delays, 0.95))})`,
    `answered over ${LATE_ANSWER} s late ${s.answeredLate}, not at all ${s.unanswered}, of ${s.known + s.unknown}`,
  ].join('  ');
}
