import type { RecognitionOutcomes } from '../repositories/recordings.repository.js';

const percent = (part: number, whole: number) =>
  whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`;
const people = (count: number) => `${count} ${count === 1 ? 'person' : 'people'}`;

/**
 * What became of the utterances kept over the last `days`, for the people who run the
 * service: how often the app answered, how often people said what they meant (each answer
 * teaches their profile), and how often the answers they judged were right.
 */
export function describeOutcomes(outcomes: RecognitionOutcomes, days: number): string {
  const o = outcomes;
  // "Not one of my phrases" is offered only where a phrase was shown.
  const judged = o.right + o.put_right + o.none_of_mine;
  const rows: [string, string][] = [
    ['utterances kept', `${o.kept} (recognised on the device: ${o.local}), of ${people(o.people)}`],
    ['given an answer', `${o.given_an_answer} (${percent(o.given_an_answer, o.kept)})`],
    [
      'answered by the person',
      `${o.answered} (${percent(o.answered, o.kept)}), by ${people(o.people_answering)}`,
    ],
    ['  "That\'s right"', String(o.right)],
    ['  another of their phrases', String(o.put_right)],
    ['  named after none was shown', String(o.named_after_turned_away)],
    ['  "Not one of my phrases"', String(o.none_of_mine)],
    ['answers judged right', `${o.right} of ${judged} (${percent(o.right, judged)})`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return [
    `Recognition over the last ${days} days (test accounts left out; people who keep no recognition audio are not counted):`,
    ...rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`),
  ].join('\n');
}
