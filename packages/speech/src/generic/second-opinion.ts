import type { SoundSwallowerModule } from 'soundswallower';
import type { Recognition } from '../decode/matcher.js';
import type { Seconds } from '../units.js';
import { spokenSpan } from '../model/features-of-take.js';
import { normaliseText } from '../model/profile.js';
import { GenericRecogniser } from './generic.js';

/**
 * The phone loop's prior against a phrase (JSGF weight). With the judgement below, FSDD's
 * unrecorded digits went from none to 63 % understood on the tuning takes with no unknown
 * digit more accepted; a heavier loop names fewer, a lighter one lets unknown ones through
 * (docs/decisions/0101). Heard with silence around (0120), FSDD's speakers in a room read
 * about the same from 1e-12 to 1e-18.
 */
export const UNRECORDED_LOOP_WEIGHT = '1e-15';

/**
 * The loop's weight for one more phone against stopping (against 1): each phone costs it a
 * little more than `( ... )+`'s even odds, so a longer utterance costs it more. FSDD's
 * unrecorded digits went from 47 to 59 % understood, with fewer unknown ones accepted, on the
 * tuning and the test takes; at 0.1, unknown digits passed. The test takes lost a few
 * recorded digits of one voice the generic path now trusts (docs/decisions/0121).
 */
export const UNRECORDED_LOOP_GOES_ON = '0.3';

/**
 * The share of a person's own recorded takes the generic path must name right before it is
 * trusted with their unrecorded phrases: below it, their speech is beyond the generic
 * acoustic model, and what it names is mostly wrong (docs/decisions/0101).
 */
export const GENERIC_KNOWS_THE_VOICE = 0.6;

/** Whether a judgement (`knows`, as kept with a profile: any value) trusts the generic path. */
export function knowsTheVoice(judged: unknown): boolean {
  return typeof judged === 'number' && judged >= GENERIC_KNOWS_THE_VOICE;
}

/**
 * Seconds of silence on each side of an utterance that the generic path hears with it: its
 * engine places words against the silence around them, and the end-pointer's span of an
 * utterance holds little or none (docs/decisions/0102). Silence, not the room the utterance
 * was said in: beside a room's sound its loop of single phones outscores the phrases, and
 * it named little of what people said in a room (0120).
 */
export const GENERIC_CONTEXT_SECONDS = 0.25;

/**
 * Seconds of the stream kept on each side of an utterance's span before the silence: the
 * end-pointer's span can clip a word's soft start or end. With none, FSDD's speakers in a
 * talking room were understood a little more and their unknown digits accepted more (0120).
 */
export const WORD_EDGE_SECONDS = 0.05;

/**
 * The stream samples of an utterance from `start` to `end` seconds that the generic path
 * hears, {@link WORD_EDGE_SECONDS} on each side: `[first, past the last)`.
 */
export function spokenSamples(start: Seconds, end: Seconds): [from: number, to: number] {
  const edge = Math.round(WORD_EDGE_SECONDS * 16_000);
  const from = Math.floor(start * 16_000);
  return [from - edge, Math.max(from, Math.ceil(end * 16_000)) + edge];
}

/**
 * The stream samples the generic path hears an utterance from `start` to `end` seconds in:
 * {@link GENERIC_CONTEXT_SECONDS} more on each side.
 */
export function contextSpan(start: Seconds, end: Seconds): [from: number, to: number] {
  const margin = Math.round(GENERIC_CONTEXT_SECONDS * 16_000);
  const [from, to] = spokenSamples(start, end);
  return [from - margin, to + margin];
}

/**
 * Stream samples `from` to `to` of an utterance from `start` to `end` seconds (`end` not
 * known yet: Infinity) as the generic path hears it: its own samples, from `read(a, b)`,
 * within {@link spokenSamples}, silence outside them.
 */
export function heardSamples(
  from: number,
  to: number,
  start: Seconds,
  end: Seconds,
  read: (a: number, b: number) => Float32Array,
): Float32Array {
  const [first, last] = spokenSamples(start, end);
  const out = new Float32Array(Math.max(0, to - from));
  // A stream has no samples before its first.
  const a = Math.max(0, from, first);
  const b = Math.min(to, last);
  if (b > a) out.set(read(a, b), a - from);
  return out;
}

/**
 * The samples of `audio` (16 kHz) from `start` to `end` seconds, with
 * {@link GENERIC_CONTEXT_SECONDS} of silence on each side, as the generic path hears them.
 */
export function withSilenceAround(audio: Float32Array, start: Seconds, end: Seconds): Float32Array {
  return heardSamples(...contextSpan(start, end), start, end, (a, b) => audio.subarray(a, b));
}

/**
 * The engine hears audio in blocks of this many samples, counted from an utterance's first,
 * however the audio arrives: its answers change with how the audio is cut (4 of 100 FSDD
 * takes were named otherwise whole than in 0.2 s pieces), so an utterance heard while it is
 * spoken and the same one heard at once get one answer.
 */
export const GENERIC_BLOCK = 1600;

/** What the generic path named in an utterance: one of the person's phrases, or null. */
export interface Named {
  text: string | null;
  /** The engine's word posterior for the weakest word, 0..1. */
  confidence: number;
}

/**
 * One utterance the engine hears, fed as it comes (in {@link GENERIC_BLOCK}s). The engine
 * hears one at a time: listening to another drops this one, which then names nothing.
 */
export class GenericUtterance {
  private readonly block = new Float32Array(GENERIC_BLOCK);
  private filled = 0;
  private done = false;

  constructor(
    private readonly recogniser: GenericRecogniser,
    private readonly current: () => boolean,
  ) {}

  /** Whether the engine is still hearing it. */
  get live(): boolean {
    return !this.done && this.current();
  }

  feed(samples: Float32Array): void {
    if (!this.live) return;
    for (let offset = 0; offset < samples.length;) {
      const n = Math.min(GENERIC_BLOCK - this.filled, samples.length - offset);
      this.block.set(samples.subarray(offset, offset + n), this.filled);
      this.filled += n;
      offset += n;
      if (this.filled === GENERIC_BLOCK) {
        this.recogniser.process(this.block);
        this.filled = 0;
      }
    }
  }

  /** What it named, once all of it was fed; undefined when the engine dropped it. */
  finish(): Named | undefined {
    if (!this.live) return undefined;
    this.done = true;
    this.recogniser.process(this.block.subarray(0, this.filled));
    return this.recogniser.finish();
  }

  /** Stop hearing it (its answer is not wanted). */
  abandon(): void {
    if (!this.live) return;
    this.done = true;
    this.recogniser.abandon();
  }
}

/** Seconds of overheard speech an engine keeps to hear when it is next free (see {@link SecondOpinion.overhear}). */
export const OVERHEARD_SECONDS = 10;

/** At most this many takes are heard to judge it, one a phrase first (each costs the engine a decode). */
export const TAKES_TO_JUDGE = 24;

/** A phrase and a recording of it. */
export interface Take {
  text: string;
  audio: Float32Array;
}

/** The takes in turn: the first of each phrase, then the second of each, and so on. */
export function takesInTurn<T extends { text: string }>(takes: readonly T[]): T[] {
  const byPhrase = new Map<string, T[]>();
  for (const take of takes) {
    const key = normaliseText(take.text);
    const list = byPhrase.get(key);
    if (list === undefined) byPhrase.set(key, [take]);
    else list.push(take);
  }
  const lists = [...byPhrase.values()];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  return Array.from({ length: longest }, (_, round) =>
    lists.flatMap((list) => list.slice(round, round + 1)),
  ).flat();
}

/**
 * The takes the generic path is judged on: up to {@link TAKES_TO_JUDGE} of them
 * {@link takesInTurn} (a server reads only these from storage).
 */
export function takesToJudge<T extends { text: string }>(takes: readonly T[]): T[] {
  return takesInTurn(takes).slice(0, TAKES_TO_JUDGE);
}

/** What the generic path heard in an utterance the personal path rejected. */
export interface GenericHearing {
  text: string;
  /** The engine's word posterior for the weakest word, 0..1. */
  confidence: number;
  /**
   * True when it is a recorded phrase, one of the personal path's best guesses, which the
   * generic path seconds (docs/decisions/0103); false for a phrase not recorded yet (0101).
   */
  recorded: boolean;
}

/**
 * The generic path's second opinion on the personal path's finals: it hears again an
 * utterance the profile rejected (or accepted in doubt, {@link hearsAgain}), and overhears
 * the rest ({@link overhear}). It decides among all of the person's phrases and a loop of
 * single phones (anything else), and answers in two cases: a phrase without recordings wins
 * (a phrase not recorded yet, 0101), or one of the guesses it is given wins (two
 * recognisers that agree, 0103, 0104). Anything else is no answer: speech that is none of
 * their phrases, or another recorded phrase. One engine hears one utterance at a time
 * ({@link listen}); a server keeps one for each person heard lately and gives one to another
 * person when it must ({@link use}, {@link forgetVoices}).
 */
export class SecondOpinion {
  /** Normalised texts of the unrecorded phrases the engine can say. */
  private unrecorded = new Set<string>();
  /** The utterance it hears now, if any. */
  private utterance: GenericUtterance | undefined;
  /** Utterances overheard and not yet heard, oldest first (see {@link overhear}). */
  private overheard: Float32Array[] = [];

  private constructor(private readonly recogniser: GenericRecogniser) {}

  /**
   * An engine with no phrases yet (its acoustic model loaded: about half a second), its means
   * read from `means` when given (adapted to a person's voice, {@link VoiceAdaptation}).
   */
  static async load(module: SoundSwallowerModule, means?: string): Promise<SecondOpinion> {
    return new SecondOpinion(
      await GenericRecogniser.create(module, [], {
        phoneLoopWeight: UNRECORDED_LOOP_WEIGHT,
        phoneLoopGoesOn: UNRECORDED_LOOP_GOES_ON,
        ...(means === undefined ? {} : { means }),
      }),
    );
  }

  /**
   * An engine for one person's phrases (see {@link use}); undefined when it can say none of
   * them (every one has a word outside its dictionary).
   */
  static async create(
    module: SoundSwallowerModule,
    phrases: readonly string[],
    recorded: readonly string[],
    means?: string,
  ): Promise<SecondOpinion | undefined> {
    const engine = await SecondOpinion.load(module, means);
    if (engine.use(phrases, recorded)) return engine;
    engine.delete();
    return undefined;
  }

  /**
   * Hear a person from now on: `phrases` are all of their phrases, those in `recorded` have
   * takes in their profile. False when it can say none of them, and so has nothing to answer.
   */
  use(phrases: readonly string[], recorded: readonly string[]): boolean {
    this.utterance = undefined;
    const withTakes = new Set(recorded.map(normaliseText));
    this.recogniser.usePhrases(phrases);
    const covered = [...this.recogniser.grammar.covered.keys()];
    this.unrecorded = new Set(covered.filter((key) => !withTakes.has(key)));
    return covered.length > 0;
  }

  /**
   * Forget the voices heard so far (see {@link GenericRecogniser.forgetVoices}): before an
   * engine shared between people hears the next one, so that what it names for them does
   * not depend on who spoke before them.
   */
  forgetVoices(): Promise<void> {
    this.utterance = undefined;
    this.overheard = [];
    return this.recogniser.forgetVoices();
  }

  /**
   * An utterance of the person's that it will not be asked about, heard only so that the
   * running mean the engine normalises by stays on their voice: an engine that hears all of
   * a person's utterances names more of those it is asked about (decision 0106). It is heard
   * when the engine is next free ({@link catchUp}), or before the next utterance it is asked
   * about, with a grammar of one short word: a real-time factor of 0.004, a thirteenth of
   * naming ten digits.
   */
  overhear(audio: Float32Array): void {
    this.overheard.push(audio);
    // Older speech is all but gone from the running mean (it weighs about the last 5 s).
    let samples = this.overheard.reduce((sum, a) => sum + a.length, 0);
    while (this.overheard.length > 1 && samples > OVERHEARD_SECONDS * 16_000)
      samples -= this.overheard.shift()?.length ?? 0;
  }

  /** Hear what was overheard ({@link overhear}) now. */
  catchUp(): void {
    const overheard = this.overheard;
    this.overheard = [];
    for (const audio of overheard) {
      const utterance = this.open(() => this.recogniser.startVoiceOnly());
      utterance.feed(audio);
      utterance.finish();
    }
  }

  /** Whether it can say `text` (every word in its dictionary, and one of the person's phrases). */
  canSay(text: string): boolean {
    return this.recogniser.grammar.covered.has(normaliseText(text));
  }

  /** The unrecorded phrases it can answer for, normalised. */
  get phrases(): string[] {
    return [...this.unrecorded];
  }

  /**
   * Start hearing an utterance, fed as it comes (see {@link HearingAhead}); the one it was
   * hearing, if any, is dropped.
   */
  listen(): GenericUtterance {
    this.catchUp();
    return this.open(() => this.recogniser.start());
  }

  private open(start: () => void): GenericUtterance {
    const utterance: GenericUtterance = new GenericUtterance(
      this.recogniser,
      () => this.utterance === utterance,
    );
    this.utterance = utterance;
    start();
    return utterance;
  }

  /** What the generic path names in one utterance heard at once, whichever phrase it is. */
  name(audio: Float32Array): Named {
    const utterance = this.listen();
    utterance.feed(audio);
    return utterance.finish() ?? { text: null, confidence: 0 };
  }

  /**
   * What it named in a rejected utterance answers: the unrecorded phrase it is, or the one of
   * `guesses` (the personal path's best guesses, {@link bestGuesses}) it names, or null.
   */
  answer({ text, confidence }: Named, guesses: readonly string[] = []): GenericHearing | null {
    if (text === null) return null;
    const key = normaliseText(text);
    if (this.unrecorded.has(key)) return { text, confidence, recorded: false };
    if (guesses.some((guess) => normaliseText(guess) === key)) return { text, confidence, recorded: true };
    return null;
  }

  /** One rejected utterance heard at once (see {@link answer}). */
  hear(audio: Float32Array, guesses: readonly string[] = []): GenericHearing | null {
    return this.answer(this.name(audio), guesses);
  }

  /**
   * The share of the person's takes (of recorded phrases) the generic path names right, on
   * the takes {@link takesToJudge} picks.
   */
  knows(takes: readonly Take[]): number {
    const judged = takesToJudge(takes);
    if (judged.length === 0) return 0;
    const right = judged.filter((take) => {
      // Its words as a stream's utterance is heard: with silence around, not the room.
      const { start, end } = spokenSpan(take.audio);
      const { text } = this.name(withSilenceAround(take.audio, start, end));
      return text !== null && normaliseText(text) === normaliseText(take.text);
    }).length;
    return right / judged.length;
  }

  /** Free the engine's memory. */
  delete(): void {
    this.recogniser.delete();
  }
}

/**
 * How many of the personal path's guesses the generic path may second: its first three. On
 * FSDD's tuning takes with one / three / five takes a digit, 80.7 / 91.7 / 93.7 % were
 * understood by the profile alone, 90.3 / 96.0 / 96.7 % with either of its first two
 * seconded, about a point and a half fewer with only its first (docs/decisions/0103). Since
 * the engine overhears the rest (0106), its first three understood 92.3 % with one take a
 * digit against 90.7 % for two, the same with three and five, no unknown digit more
 * accepted; five or all of them no more than three.
 */
export const SECONDED_GUESSES = 3;

/**
 * An accepted final under this confidence (the profile's cut is at 0.5) is heard again too,
 * for a voice the generic path knows, and stands only if the generic path names the same
 * phrase (another of its guesses that it names, or a phrase not recorded yet, takes its
 * place since 0123). The profile's false accepts of unknown FSDD digits on the tuning takes had
 * 0.56-0.79, and the generic path named none of the phrases, or another, in each; doubting
 * answers under 0.7 took back the unknown digits seconding let through, for one to two
 * points of what it gained (docs/decisions/0104). Not over a talking room: it names little
 * over other voices, nearly every answer it withdrew there was right, and doubting cost 5-7
 * points of the digits FSDD's speakers said 20 dB over them (0107). 0.75 rather than 0.7
 * since 0119: with every digit unknown in turn, unknown digits near a known one ("zero" for
 * "two") were accepted less (tuning takes 11.0 -> 9.0 %, test 9.4 -> 8.4 %) for about two
 * known digits turned away for each (test), a trade worth it where the answer is spoken aloud.
 */
export const DOUBTED_BELOW = 0.75;

/**
 * Whether the generic path hears a final again: a rejection, or an acceptance in doubt
 * heard clear of other voices.
 */
export const hearsAgain = (result: Recognition): boolean =>
  result.rejected || (result.confidence < DOUBTED_BELOW && result.overVoices !== true);

/**
 * What the generic path may second in a result: its best guesses, an accepted final's own
 * phrase first.
 */
export const bestGuesses = (result: Recognition): string[] =>
  result.alternatives.slice(0, SECONDED_GUESSES).map((alternative) => alternative.text);

/** A final the generic path heard again, marked with how it answered. */
export type HeardAgain<R extends Recognition> = R & {
  /** A phrase not recorded yet, named by the generic path alone. */
  generic?: true;
  /** One of the personal path's rejected best guesses, accepted because the generic path named it too. */
  seconded?: true;
  /** An acceptance in doubt that the generic path did not name: rejected. */
  doubted?: true;
};

/**
 * Whether `engine` hears this final again: a rejection, or an acceptance in doubt of a phrase
 * it can say (a phrase with a word outside its dictionary is not its to doubt).
 */
export function heardAgainBy(
  result: Recognition,
  engine: SecondOpinion | undefined,
): engine is SecondOpinion {
  if (!hearsAgain(result) || engine === undefined) return false;
  return result.rejected || engine.canSay(result.text ?? '');
}

/**
 * A final result heard again where the personal path rejected it or accepted it in doubt
 * (see {@link SecondOpinion.hear}, {@link heardAgainBy}), from its audio at once.
 * Anything else is returned as it was.
 */
export function withSecondOpinion<R extends Recognition>(
  result: R,
  audio: Float32Array,
  unrecorded: SecondOpinion | undefined,
): HeardAgain<R> {
  if (!heardAgainBy(result, unrecorded)) return result;
  return withNamed(result, unrecorded.name(audio), unrecorded);
}

/** The same, with what the engine already named in the final's utterance (heard ahead). */
export function withNamed<R extends Recognition>(
  result: R,
  named: Named,
  unrecorded: SecondOpinion,
): HeardAgain<R> {
  return withGenericAnswer(result, unrecorded.answer(named, bestGuesses(result)));
}

/**
 * A result answered with what the generic path heard in it. An acceptance in doubt
 * ({@link hearsAgain}) stands if the generic path named its phrase; otherwise it is a
 * rejection (`doubted`) answered as any other (docs/decisions/0123). A rejection: an
 * unrecorded phrase becomes the answer, the personal path's guesses its alternatives; a
 * seconded guess is accepted, first among the personal path's guesses; otherwise it stands.
 */
function withGenericAnswer<R extends Recognition>(result: R, heard: GenericHearing | null): HeardAgain<R> {
  if (result.rejected) return answeredRejection(result, heard);
  const named = heard?.recorded === true && normaliseText(heard.text) === normaliseText(result.text ?? '');
  if (!hearsAgain(result) || named) return result;
  const answered = answeredRejection<R>({ ...result, text: null, rejected: true }, heard);
  return answered.rejected ? { ...answered, doubted: true } : answered;
}

/** A rejected result answered with what the generic path heard in it (see {@link withGenericAnswer}). */
function answeredRejection<R extends Recognition>(result: R, heard: GenericHearing | null): HeardAgain<R> {
  if (heard === null) return result;
  const key = normaliseText(heard.text);
  const guess = heard.recorded
    ? result.alternatives.find((alternative) => normaliseText(alternative.text) === key)
    : undefined;
  if (guess !== undefined)
    return {
      ...result,
      text: guess.text,
      confidence: guess.confidence,
      rejected: false,
      alternatives: [guess, ...result.alternatives.filter((alternative) => alternative !== guess)],
      seconded: true,
    };
  if (heard.recorded) return result;
  return {
    ...result,
    text: heard.text,
    confidence: heard.confidence,
    rejected: false,
    alternatives: [{ text: heard.text, confidence: heard.confidence }, ...result.alternatives],
    generic: true,
  };
}
