// A person's phrases said one after another in one live stream, as the app hears them,
// and how the stream's final results are scored against where each phrase was.
import { normaliseText } from '../model/profile.js';
import type { Seconds } from '../units.js';
import { SAMPLE_RATE } from '../units.js';
import { addRoomTone } from '../audio/as-recorded.js';
import { inNoise, rmsOf } from './channels.js';

/** Where one phrase was said in the stream. */
export interface SaidSpan {
  text: string;
  start: Seconds;
  end: Seconds;
  /** Whether it is one of the user's phrases. */
  known: boolean;
}

/** One final result of the stream, as `RecognitionStream` reports it. */
export interface StreamFinal {
  text: string | null;
  start: Seconds;
  end: Seconds;
  /** When the stream gave it: how much audio had been pushed by then. */
  heardAt: Seconds;
}

/** What a stream's finals made of the phrases said in it. */
export interface StreamScore {
  /** Known phrases with an accepted final of their own text over them. */
  understood: number;
  known: number;
  /** Known phrases with an accepted final of another phrase over them. */
  mistaken: number;
  /** Unknown phrases with an accepted final over them. */
  unknownAccepted: number;
  unknown: number;
  /** Finals over no phrase at all: the room alone; and how many of them were accepted. */
  roomFinals: number;
  roomAccepted: number;
  finals: number;
  /** Median length of the finals' utterances. */
  medianLength: Seconds;
  /** For each understood phrase, how long after its recording ended its first right final
   * came (negative: before, while the recording's own trailing silence played). */
  delays: Seconds[];
  /** Phrases whose first final, right or not, came more than `LATE_ANSWER` after their
   * recording ended; and phrases with no final over them at all. */
  answeredLate: number;
  unanswered: number;
}

/**
 * An answer this long after the recording ended is late: the person has stopped for the
 * end-point silence, and then some (docs/decisions/0089).
 */
export const LATE_ANSWER: Seconds = 1;

/**
 * The phrases one after another, each after its gap (`gaps[i]` before phrase `i`; one more
 * gap, if given, after the last); `room` (looped from `offset`) is added under the whole
 * stream at `snrDb` under its speech level, or nothing when absent.
 *
 * The gaps are silent unless `tone` is given: each recording's first and last `edge`
 * seconds then hold its room alone, and each gap gets that room's steady sound at the level
 * of the recording after it (the last gap: before it), as the room went on between takes.
 */
export function sayInStream(
  phrases: readonly { text: string; audio: Float32Array; known: boolean }[],
  gaps: readonly Seconds[],
  room?: { noise: Float32Array; snrDb: number; offset: number },
  tone?: { edge: Seconds; random: () => number },
): { audio: Float32Array; spans: SaidSpan[] } {
  const gapSamples = gaps.map((g) => Math.round(g * SAMPLE_RATE));
  const total = phrases.reduce((n, p) => n + p.audio.length, 0) + gapSamples.reduce((n, g) => n + g, 0);
  const audio = new Float32Array(total);
  const spans: SaidSpan[] = [];
  let at = 0;
  const edge = Math.round((tone?.edge ?? 0) * SAMPLE_RATE);
  const fillGap = (from: number, samples: number, beside: Float32Array | undefined): void => {
    if (tone === undefined || beside === undefined) return;
    addRoomTone(audio.subarray(from, from + samples), rmsOf(beside), tone.random);
  };
  phrases.forEach((p, i) => {
    fillGap(at, gapSamples[i] ?? 0, p.audio.subarray(0, edge));
    at += gapSamples[i] ?? 0;
    audio.set(p.audio, at);
    spans.push({
      text: p.text,
      known: p.known,
      start: at / SAMPLE_RATE,
      end: (at + p.audio.length) / SAMPLE_RATE,
    });
    at += p.audio.length;
  });
  fillGap(at, audio.length - at, phrases.at(-1)?.audio.subarray(-edge));
  if (room === undefined) return { audio, spans };
  // The stream's speech level is its phrases' (the silences between lie far under it).
  return { audio: inNoise(audio, room.noise, room.snrDb, room.offset), spans };
}

/** Whether a final lies over a span, with a little slack for the end-pointer's padding. */
const over = (f: StreamFinal, s: SaidSpan): boolean => f.start < s.end + 0.2 && f.end > s.start - 0.2;

/** Score the finals of one stream against the phrases said in it. */
export function scoreStream(spans: readonly SaidSpan[], finals: readonly StreamFinal[]): StreamScore {
  const accepted = (f: StreamFinal): boolean => f.text !== null;
  let understood = 0;
  let mistaken = 0;
  let unknownAccepted = 0;
  let answeredLate = 0;
  let unanswered = 0;
  const delays: Seconds[] = [];
  for (const s of spans) {
    const answers = finals.filter((f) => over(f, s));
    if (answers.length === 0) unanswered++;
    else if (Math.min(...answers.map((f) => f.heardAt)) - s.end > LATE_ANSWER) answeredLate++;
    const heard = answers.filter(accepted);
    const right = heard.find((f) => normaliseText(f.text ?? '') === normaliseText(s.text));
    if (!s.known) {
      if (heard.length > 0) unknownAccepted++;
    } else if (right !== undefined) {
      understood++;
      delays.push(right.heardAt - s.end);
    } else if (heard.length > 0) mistaken++;
  }
  const room = finals.filter((f) => !spans.some((s) => over(f, s)));
  const lengths = finals.map((f) => f.end - f.start).sort((a, b) => a - b);
  return {
    understood,
    known: spans.filter((s) => s.known).length,
    mistaken,
    unknownAccepted,
    unknown: spans.filter((s) => !s.known).length,
    roomFinals: room.length,
    roomAccepted: room.filter(accepted).length,
    finals: finals.length,
    medianLength: lengths[Math.floor(lengths.length / 2)] ?? 0,
    delays,
    answeredLate,
    unanswered,
  };
}
