import type { Recognition } from '../decode/matcher.js';
import type { HeardAgain } from '../generic/second-opinion.js';
import type { Sequence } from '../model/dtw.js';
import { encoderOpinion, encoderSeconds, type EncoderTemplate } from './encoder-view.js';

/**
 * Fewest phrases with views the encoder judges among. Its clarity is its first phrase against
 * the next two: among a handful, an unknown phrase can lie clearly nearest one of them (an
 * espeak "good morning" against three longer phrases was taken for one). Six is the fewest
 * measured (the six-phrase users, docs/decisions/0146).
 */
export const ENCODER_MIN_PHRASES = 6;

/** Whether the encoder is asked among these phrase texts (one a take or a phrase): among at
 * least {@link ENCODER_MIN_PHRASES} different ones. Views of fewer would be made for nothing. */
export function encoderJudgesAmong(texts: Iterable<string>): boolean {
  return new Set(texts).size >= ENCODER_MIN_PHRASES;
}

/**
 * The speech encoder's opinion as the product asks it (docs/decisions/0144-0146): on a
 * final still rejected once the generic path has heard it, whose first guess the profile
 * named, for a person with views of at least {@link ENCODER_MIN_PHRASES} phrases. Only such
 * finals pay for the encoder.
 */
export function encoderHearsAgain(result: Recognition, templates: readonly EncoderTemplate[]): boolean {
  return (
    result.rejected &&
    result.alternatives[0] !== undefined &&
    encoderJudgesAmong(templates.map((template) => template.text))
  );
}

/**
 * A final the encoder heard (`view`, of the final's own span, {@link encoderHears}): a
 * rejection whose first guess the encoder names first, and clearly, among the person's
 * `templates` is accepted as that guess, `seconded` as two recognisers agreeing are. Any
 * other result is returned as it was.
 */
export function withEncoderOpinion<R extends Recognition>(
  result: HeardAgain<R>,
  view: Sequence,
  templates: readonly EncoderTemplate[],
): HeardAgain<R> {
  const guess = result.alternatives[0];
  if (!encoderHearsAgain(result, templates) || guess === undefined) return result;
  if (!encoderSeconds(encoderOpinion(view, templates), guess.text)) return result;
  // An acceptance the generic path doubted is doubted no more.
  const { doubted: _, ...answered } = result;
  return {
    ...answered,
    text: guess.text,
    confidence: guess.confidence,
    rejected: false,
    seconded: true,
  } as HeardAgain<R>;
}
