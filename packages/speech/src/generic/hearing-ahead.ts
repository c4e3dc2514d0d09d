import type { KeptAudio } from '../audio/kept-audio.js';
import type { Recognition } from '../decode/matcher.js';
import type { EndedUtterance, StreamEvent } from '../decode/streaming.js';
import type { Seconds } from '../units.js';
import {
  contextSpan,
  heardAgainBy,
  spokenSamples,
  withNamed,
  withSecondOpinion,
  type GenericUtterance,
  type Named,
  type SecondOpinion,
} from './second-opinion.js';

/** Where a final starts and ends in its stream. */
export interface Span {
  start: Seconds;
  end: Seconds;
}

/** Where a live stream is, as far as hearing its utterances ahead needs to know. */
export interface StreamProgress {
  /** While an utterance is heard: where its speech has reached so far. */
  readonly speechUntil: Seconds | undefined;
  /** While the end-point silence is waited out: the final expected, and where it starts. */
  readonly expected: { start: Seconds; result: Recognition } | undefined;
  /** The last utterance whose end-point has passed (its final may still be held). */
  readonly lastEnded: EndedUtterance | undefined;
}

/**
 * The generic path hearing a live stream's utterance before its end-point, so that a final
 * it hears again (`withSecondOpinion`, decisions 0102-0104) waits for the utterance's last
 * audio, not for a decode of all of it (30-600 ms) after the end-point. The stream decides
 * each utterance ahead while it waits out the end-point silence (`expected`); once that
 * final is one the generic path will hear, the engine hears the utterance from the final's
 * start (with silence before it, {@link contextSpan}, 0120) and follows it as far as its
 * speech has surely reached; once its end is known, silence follows. A rejected final is
 * held a while, to be joined to what follows: it is heard out as soon as its words have
 * come, at once if it was not followed, and answered when released. It names exactly what
 * it names hearing the same utterance at once. An utterance it will not be
 * asked about is only overheard, in the push after its final: naming every one would cost
 * too much (docs/decisions/0105), but the engine names more when its running mean has heard
 * them all (0106). A final given at its end-point that it did not follow (a stream that
 * ended right after the word, an engine taken by another stream meanwhile) is heard at
 * once, as before.
 */
export class HearingAhead {
  /** The utterance being heard, from its final's start, and the next stream sample it needs. */
  private open: { start: Seconds; next: number; utterance: GenericUtterance } | undefined;
  /** An utterance heard out whose final has not come yet (a rejected final is held). */
  private heard: (Span & { named: Named }) | undefined;
  /** The last utterance ended that is dealt with: its final answered, or heard out. */
  private settled: Span | undefined;

  constructor(
    /** The engine it hears with (one utterance at a time, shared or not). */
    readonly engine: SecondOpinion,
    private readonly kept: KeptAudio,
  ) {}

  /**
   * After the stream heard its newest audio (already kept) and gave `events`: finals
   * answered, and the utterance being spoken fed as far as it goes.
   */
  follow(events: StreamEvent[], progress: StreamProgress): StreamEvent[] {
    // The utterances overheard since the last push: no final waits on them now.
    this.engine.catchUp();
    const answered = events.map((event) => {
      if (event.type === 'final') return this.answer(event);
      if (event.type === 'speech-cancelled') this.drop();
      return event;
    });
    this.keepUp(progress);
    return answered;
  }

  /** The stream is over. */
  close(): void {
    this.drop();
    this.heard = undefined;
    this.settled = undefined;
  }

  private listen(start: Seconds): void {
    this.drop();
    this.open = { start, next: contextSpan(start, start)[0], utterance: this.engine.listen() };
  }

  private drop(): void {
    this.open?.utterance.abandon();
    this.open = undefined;
  }

  /**
   * Feed the open utterance up to stream sample `to`: its own audio, silence before its start
   * and, once its `end` is known, after that (as the generic path hears an utterance at once).
   */
  private feed(to: number, end?: Seconds): void {
    const open = this.open;
    if (open === undefined || to <= open.next) return;
    open.utterance.feed(this.kept.spoken(open.next, to, open.start, end));
    open.next = to;
  }

  /**
   * Hear the open utterance out, once its end is known: undefined when it was fed the
   * stream's audio past that end (the end moved back), which it must then hear at once.
   */
  private finish({ start, end }: Span): Named | undefined {
    const open = this.open;
    if (open === undefined || open.next > spokenSamples(start, end)[1]) return undefined;
    this.feed(contextSpan(start, end)[1], end);
    return open.utterance.finish();
  }

  /**
   * Start hearing an utterance once its expected final is one to hear again; feed it as far
   * as it surely reaches; hear out one whose end-point has passed.
   */
  private keepUp({ speechUntil, expected, lastEnded }: StreamProgress): void {
    // Heard from the final's start (a final joined to the one before starts where that did).
    if (
      expected !== undefined &&
      expected.start !== this.open?.start &&
      heardAgainBy(expected.result, this.engine)
    )
      this.listen(expected.start);
    if (lastEnded !== undefined && !sameSpan(lastEnded, this.settled)) this.hearOut(lastEnded);
    else if (this.open !== undefined && speechUntil !== undefined)
      // Its speech so far (its end is no earlier); what follows is silence once it has ended.
      this.feed(Math.min(this.kept.heard, spokenSamples(this.open.start, speechUntil)[1]));
  }

  /**
   * An utterance whose end-point has passed and whose final has not come (a rejected final
   * is held a while, to be joined to what follows): heard out from where it was followed,
   * or at once when it was not (its start moved at the end-point, or it ended before its
   * decision ahead called for it).
   */
  private hearOut(ended: EndedUtterance): void {
    const open = this.open?.start === ended.start ? this.open : undefined;
    // One opened for a start the utterance no longer has is of no use.
    if (open === undefined && this.open !== undefined && this.open.start < ended.end) this.drop();
    if (!heardAgainBy(ended.result, this.engine)) {
      if (open !== undefined) this.drop();
      this.settled = ended;
      return;
    }
    // Its words must all have come; the silence after them is not waited for.
    if (this.kept.heard < spokenSamples(ended.start, ended.end)[1]) return;
    const followed = open !== undefined ? this.finish(ended) : undefined;
    this.drop();
    const named = followed ?? this.engine.name(this.kept.around(ended.start, ended.end));
    this.heard = { start: ended.start, end: ended.end, named };
    this.settled = ended;
  }

  /** A final it was not asked about: the engine hears it for the voice alone, when next free. */
  private overhear({ start, end }: Span): void {
    this.engine.overhear(this.kept.around(start, end));
  }

  private answer(final: Extract<StreamEvent, { type: 'final' }>): StreamEvent {
    const open = this.open?.start === final.start ? this.open : undefined;
    const heard = sameSpan(final, this.heard) ? this.heard : undefined;
    if (heard !== undefined) this.heard = undefined;
    this.settled = { start: final.start, end: final.end };
    if (!heardAgainBy(final, this.engine)) {
      if (open !== undefined) this.drop();
      this.overhear(final);
      return final;
    }
    let named = heard?.named;
    if (open !== undefined) {
      named = this.finish(final);
      this.drop();
    }
    if (named === undefined)
      return withSecondOpinion(final, this.kept.around(final.start, final.end), this.engine);
    return withNamed(final, named, this.engine);
  }
}

/**
 * A stream's hearing with `engine`: the one it has, or a new one when the engine is another
 * (given to someone else, or loaded, since the stream opened), which follows the stream from
 * its next utterance on.
 */
export function hearingWith(
  hearing: HearingAhead | undefined,
  engine: SecondOpinion,
  kept: KeptAudio,
): HearingAhead {
  return hearing?.engine === engine ? hearing : new HearingAhead(engine, kept);
}

/** Two spans the same (compared by value: a stream's progress may come as a copy). */
const sameSpan = (a: Span, b: Span | undefined): boolean => a.start === b?.start && a.end === b.end;
