import { basename, resolve } from 'node:path';
import {
  evaluate,
  personalFactory,
  summariseWith,
  unrecordedIn,
  type Decision,
  type Metrics,
  type RecogniserFactory,
  type GenericHearingTrial,
} from '../eval/evaluate.js';
import { cutClose, enrolledAsImported, heardAsRecorded } from '../eval/channels.js';
import { productGenericTrial } from '../platform/voice-adaptation.node.js';
import { normaliseText } from '../model/profile.js';
import { loadSoundSwallower } from '../platform/soundswallower.node.js';
import { loadManifest, ManifestError } from '../platform/files.node.js';
import { loadPhoneModel } from '../platform/phones.node.js';
import { loadSpeechEncoder } from '../platform/encoder.node.js';
import { commandLine } from './command-line.js';

// npm runs scripts from the repository root; paths on the command line are the user's.
const cwd = process.env.INIT_CWD ?? process.cwd();

const USAGE =
  'usage: npm run speech:eval -- --enroll ENROLL.json --test TEST.json [--no-generic] [--personal-only] [--adapt] [--as-recorded] [--cut-close] [--imported] [--verbose] [--phone-weight W] [--threshold T] [--unrecorded N] [--own-means] [--encoder-opinion]';

const { values } = commandLine(
  {
    options: {
      enroll: { type: 'string' },
      test: { type: 'string' },
      'no-generic': { type: 'boolean', default: false },
      'personal-only': { type: 'boolean', default: false },
      adapt: { type: 'boolean', default: false },
      'as-recorded': { type: 'boolean', default: false },
      imported: { type: 'boolean', default: false },
      'cut-close': { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      'phone-weight': { type: 'string' },
      threshold: { type: 'string' },
      unrecorded: { type: 'string' },
      'own-means': { type: 'boolean', default: false },
      'encoder-opinion': { type: 'boolean', default: false },
    },
  },
  USAGE,
);
if (values.enroll === undefined || values.test === undefined) {
  console.error(`--enroll and --test are both needed\n${USAGE}`);
  process.exit(2);
}
// The encoder's templates are the enrolled takes only: what a simulated user confirms never
// reaches them.
if (values['encoder-opinion'] && values.adapt) {
  console.error('--encoder-opinion does not learn from use: leave out --adapt');
  process.exit(2);
}

/** A manifest's items, or a one-line reason and exit code 2 instead of a stack trace. */
async function manifest(path: string) {
  try {
    return await loadManifest(resolve(cwd, path));
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}
// `--cut-close`: enrolment files cut close at the phrase, as clips trimmed in an editor are;
// `--imported`: then kept as recorded where they hold too little room (`keptAsImported`, 0115).
const fromManifest = (await manifest(values.enroll)).map((item) =>
  values['cut-close'] ? { ...item, audio: cutClose(item.audio) } : item,
);
const enrol = values.imported ? enrolledAsImported(fromManifest) : fromManifest;
// `--as-recorded`: each test file heard as the app records a phrase, while enrolment stays
// as the manifest has it: what a person whose takes were cut close meets live (0113).
const tested = await manifest(values.test);
const test = values['as-recorded'] ? heardAsRecorded(tested) : tested;
// A profile is trained per enrolled speaker: say so when test items have none to meet.
const enrolled = new Set(enrol.map((e) => e.speaker));
const strangers = [...new Set(test.filter((t) => !enrolled.has(t.speaker)).map((t) => t.speaker))];
if (strangers.length > 0)
  console.error(`Skipping the test items of speakers with no enrolment items: ${strangers.join(', ')}.`);

const empty: Metrics = {
  accuracy: 0,
  oov_false_accept: 0,
  ms_per_utterance: 0,
  p95_final_ms: 0,
  train_ms: 0,
};

async function run(name: string, factory: RecogniserFactory) {
  const result = await evaluate(enrol, test, factory, { adapt: values.adapt });
  for (const [speaker, m] of Object.entries(result.speakers)) {
    const { top1 } = summariseWith(
      result.decisions.filter((d) => d.speaker === speaker),
      0,
    );
    console.log(
      `${name.padEnd(9)} ${speaker.padEnd(16)} top1 ${(top1 * 100).toFixed(1).padStart(5)} %  acc ${(m.accuracy * 100).toFixed(1).padStart(5)} %  oov-fa ${(m.oov_false_accept * 100).toFixed(1).padStart(5)} %  ${m.ms_per_utterance.toFixed(1)} ms/utt  p95 final ${m.p95_final_ms.toFixed(1)} ms  train ${m.train_ms.toFixed(0)} ms`,
    );
  }
  if (values.verbose) {
    for (const d of result.decisions) {
      const ok = d.inVocabulary
        ? d.hypothesis?.toLowerCase() === d.reference.toLowerCase()
        : d.hypothesis === null;
      if (ok) continue;
      // A rejection's first guess tells a right phrase turned away from one taken for another.
      const guess = d.hypothesis === null && d.top !== null ? `, first guess "${d.top}"` : '';
      const file = d.source === undefined ? '' : `  ${basename(d.source)}`;
      console.log(
        `  miss ${d.speaker} "${d.reference}" -> ${JSON.stringify(d.hypothesis)} (${d.confidence.toFixed(2)})${guess}${file}`,
      );
    }
  }
  return result;
}

// Experimental: match phone posteriorgrams too, with this weight (docs/decisions/0055).
const phoneWeight = Number(values['phone-weight'] ?? 0);
if (!(phoneWeight >= 0)) {
  console.error('--phone-weight takes a number of 0 or more');
  process.exit(2);
}
const phones = phoneWeight > 0 ? await loadPhoneModel() : undefined;
// Experimental: the profiles' rejection cut instead of the built one (0.5), to read a curve.
const threshold = values.threshold === undefined ? undefined : Number(values.threshold);
if (threshold !== undefined && !(threshold > 0 && threshold < 1)) {
  console.error('--threshold takes a confidence between 0 and 1');
  process.exit(2);
}

// Phrases not yet recorded: one in N has its takes left out, and the generic path hears it
// where the personal path rejects (docs/decisions/0101).
const every = values.unrecorded === undefined ? undefined : Number(values.unrecorded);
if (every !== undefined && !(Number.isInteger(every) && every >= 2)) {
  console.error('--unrecorded takes a whole number of 2 or more: one phrase in N is left unrecorded');
  process.exit(2);
}
if (every !== undefined && values['personal-only']) {
  console.error('--unrecorded needs the generic path: leave out --personal-only');
  process.exit(2);
}
if (values['own-means'] && values['personal-only']) {
  console.error('--own-means needs the generic path: leave out --personal-only');
  process.exit(2);
}
// A trial: a speech model's encoder seconds rejected finals (docs/decisions/0144).
const encoder = values['encoder-opinion'] ? await loadSpeechEncoder() : undefined;
// As the product: the generic path hears finals again for a voice it knows (0103, 0104);
// `--personal-only` measures the personal profile alone.
let trial: GenericHearingTrial | undefined;
if (!values['personal-only']) {
  // Adapted to each speaker's voice where it knows it so (0128); `--own-means`: the
  // model's own means for every voice, as before.
  trial = {
    ...productGenericTrial(await loadSoundSwallower(), values['own-means']),
    ...(every === undefined ? {} : { unrecordedEvery: every }),
  };
}
const personal = await run(
  'personal',
  personalFactory(
    { phones, settings: { phoneWeight }, ...(threshold === undefined ? {} : { threshold }) },
    trial,
    encoder,
  ),
);
if (every !== undefined) reportUnrecorded(personal.decisions, every);

/** How the phrases left unrecorded fared beside the recorded ones and the unknown ones. */
function reportUnrecorded(decisions: Decision[], every: number) {
  const left = new Map(
    [...enrolled].map((speaker) => [
      speaker,
      unrecordedIn(
        enrol.filter((e) => e.speaker === speaker),
        every,
      ),
    ]),
  );
  const isLeft = (d: Decision) => left.get(d.speaker)?.has(normaliseText(d.reference)) ?? false;
  const right = (d: Decision) =>
    d.hypothesis !== null && normaliseText(d.hypothesis) === normaliseText(d.reference);
  const share = (list: Decision[], test: (d: Decision) => boolean) => {
    const hits = list.filter(test).length;
    return `${((100 * hits) / Math.max(1, list.length)).toFixed(1)} % (${hits}/${list.length})`;
  };
  const known = decisions.filter((d) => d.inVocabulary);
  const unknown = decisions.filter((d) => !d.inVocabulary);
  console.log(
    `unrecorded phrases understood ${share(known.filter(isLeft), right)}, recorded ${share(
      known.filter((d) => !isLeft(d)),
      right,
    )}, unknown accepted ${share(unknown, (d) => d.hypothesis !== null)}`,
  );
}
let generic: Awaited<ReturnType<typeof run>> | undefined;
if (!values['no-generic']) {
  const { genericFactory } = await import('../platform/generic.node.js');
  generic = await run('generic', await genericFactory());
}

const speakers: Record<string, { personal: Metrics; generic: Metrics }> = {};
for (const [id, m] of Object.entries(personal.speakers)) {
  speakers[id] = { personal: m, generic: generic?.speakers[id] ?? empty };
}
console.log(JSON.stringify({ personal: personal.overall, generic: generic?.overall ?? empty, speakers }));
