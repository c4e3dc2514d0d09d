import type { Recognition } from '../decode/matcher.js';
import type { Sequence } from '../model/dtw.js';
import type { Seconds } from '../units.js';
import type { EncoderTemplate } from './encoder-view.js';
import { encoderHearsAgain } from './third-opinion.js';

/** The final a live stream will give if no more speech comes (`RecognitionStream.expected`). */
export interface ExpectedFinal {
  start: Seconds;
  end: Seconds;
  result: Recognition;
}

/**
 * One live stream's finals viewed by the speech encoder ahead (docs/decisions/0148): while the
 * end-pointer waits out its silence, the stream knows the final it expects; when the encoder
 * will hear that final, its view is begun then, and the final, once given, waits only for what
 * is left of it. A final of another span (joined to what followed) is viewed when it comes.
 */
export class EncoderViewAhead {
  private begun: { start: Seconds; end: Seconds; view: Promise<Sequence> } | undefined;

  /** @param view The host's encoder, viewing an utterance's samples. */
  constructor(private readonly view: (audio: Float32Array) => Promise<Sequence>) {}

  /**
   * After a push: begins viewing the final `expected`, when the encoder will hear it among
   * `templates`. `audio` gives a span's samples as the encoder hears them.
   */
  follow(
    expected: ExpectedFinal | undefined,
    templates: readonly EncoderTemplate[] | undefined,
    audio: (start: Seconds, end: Seconds) => Float32Array,
  ): void {
    if (expected === undefined || templates === undefined) return;
    if (!encoderHearsAgain(expected.result, templates)) return;
    const { start, end } = expected;
    if (this.viewOf(start, end) !== undefined) return;
    const samples = audio(start, end);
    if (samples.length === 0) return;
    const view = this.view(samples);
    // A failure is met again by the final that asks for the view, if one does.
    view.catch(() => undefined);
    this.begun = { start, end, view };
  }

  /** The view begun of the final from `start` to `end`, if one was. */
  viewOf(start: Seconds, end: Seconds): Promise<Sequence> | undefined {
    return this.begun?.start === start && this.begun.end === end ? this.begun.view : undefined;
  }
}

/**
 * The encoder's view of a final: `begun`, the one viewed ahead of it, else one `view` begins
 * now of its `audio()`; undefined when the final has no audio.
 */
export function viewOfFinal(
  begun: Promise<Sequence> | undefined,
  audio: () => Float32Array,
  view: (audio: Float32Array) => Promise<Sequence>,
): Promise<Sequence> | undefined {
  if (begun !== undefined) return begun;
  const samples = audio();
  return samples.length === 0 ? undefined : view(samples);
}
