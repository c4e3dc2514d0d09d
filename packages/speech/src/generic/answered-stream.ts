import { KeptAudio, STREAM_KEPT_SECONDS } from '../audio/kept-audio.js';
import type { RecognitionStream, StreamEvent } from '../decode/streaming.js';
import { hearingWith, type HearingAhead } from './hearing-ahead.js';
import type { SecondOpinion } from './second-opinion.js';

/** What one push (or the end) of an {@link AnsweredStream} gave. */
export interface AnsweredEvents {
  /** The profile's own events. */
  found: StreamEvent[];
  /** The same events, each final the generic path heard again answered by it. */
  answered: StreamEvent[];
}

/**
 * A live stream as the product answers it, wherever it runs (the browser's worker, the
 * evaluation, the benchmark, `speech:rooms`): the profile's events, with the finals the
 * generic path hears again answered by it (`HearingAhead`, decisions 0102-0106), its audio
 * kept so that an utterance can be heard again. Without an engine its finals are the
 * profile's alone.
 */
export class AnsweredStream {
  private readonly kept: KeptAudio;
  private hearing: HearingAhead | undefined;

  /**
   * @param engine The generic path's engine at each push: one loaded, or given another
   *   person's phrases, since the stream opened follows it from its next utterance;
   *   undefined leaves that push's finals unanswered.
   * @param keptSeconds How much of the stream is kept to hear again: the product's
   *   {@link STREAM_KEPT_SECONDS}, or a whole file's length where one file is one stream.
   */
  constructor(
    private readonly stream: RecognitionStream,
    private readonly engine: () => SecondOpinion | undefined = () => undefined,
    keptSeconds: number = STREAM_KEPT_SECONDS,
  ) {
    this.kept = new KeptAudio(keptSeconds);
  }

  push(chunk: Float32Array): AnsweredEvents {
    this.kept.push(chunk);
    return this.answer(this.stream.push(chunk));
  }

  /** An utterance of the stream, from `start` to `end` seconds, as the speech encoder hears
   * it (`KeptAudio.heardByEncoder`), as far as it is still kept. */
  heardByEncoder(start: number, end: number): Float32Array {
    return this.kept.heardByEncoder(start, end);
  }

  /** While the end-point silence is waited out: the final expected (`RecognitionStream.expected`). */
  get expected(): RecognitionStream['expected'] {
    return this.stream.expected;
  }

  /** The stream is over: its last events. */
  end(): AnsweredEvents {
    const events = this.answer(this.stream.end());
    this.hearing?.close();
    return events;
  }

  private answer(found: StreamEvent[]): AnsweredEvents {
    const engine = this.engine();
    if (engine === undefined) return { found, answered: found };
    this.hearing = hearingWith(this.hearing, engine, this.kept);
    return { found, answered: this.hearing.follow(found, this.stream) };
  }
}
