import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { concatAudio } from '../audio/audio.js';
import { Matcher } from '../decode/matcher.js';
import { RecognitionStream } from '../decode/streaming.js';
import { alignedCells } from '../model/dtw.js';
import { deserializeProfile, serializeProfile } from '../model/serialize.js';
import { trainProfile } from '../model/train.js';
import {
  CONFIRMED_TAKES_MAX,
  TRAINING_TAKES_BUDGET,
  takesForTraining,
  type TakeOrigin,
} from '../model/learning.js';
import { takeFeatures } from '../model/features-of-take.js';
import { analyseTake, decodeTakeAnalysis, encodeTakeAnalysis } from '../model/take-analysis.js';
import { AnsweredStream } from '../generic/answered-stream.js';
import { heardAgainBy, SecondOpinion } from '../generic/second-opinion.js';
import { loadManifest } from '../platform/files.node.js';
import { loadSoundSwallower } from '../platform/soundswallower.node.js';
import { ADAPTATION_SECONDS } from '../generic/voice-adaptation.js';
import { adaptToVoice } from '../platform/voice-adaptation.node.js';
import { loadSpeechEncoder } from '../platform/encoder.node.js';
import {
  encoderHearsTake,
  encoderOpinion,
  encoderTemplate,
  type EncoderTemplate,
} from '../encoder/encoder-view.js';
import { deserializeEncoderViews, serializeEncoderViews } from '../encoder/kept-views.js';
import { CHUNK_SAMPLES, SAMPLE_RATE } from '../units.js';
import type { LoadedItem } from '../eval/evaluate.js';

const packageRoot = resolve(fileURLToPath(import.meta.url), '../../..');
const data = join(packageRoot, '.data/synthetic/all');
if (!existsSync(join(data, 'enroll.json'))) {
  console.error('Benchmark audio is missing: run `npm run speech:data` first.');
  process.exit(2);
}

const silence = (s: number): Float32Array => {
  const out = new Float32Array(Math.round(s * SAMPLE_RATE));
  for (let i = 0; i < out.length; i++) out[i] = (Math.random() * 2 - 1) * 0.0005;
  return out;
};

// 200 phrases: the everyday phrases of four mild and moderate synthetic speakers, each
// (speaker, phrase) pair enrolled as its own phrase, with three takes each.
const speakers = ['syn-mild-1', 'syn-mild-2', 'syn-moderate-1', 'syn-moderate-2'];
const manifest = (split: string): Promise<LoadedItem[]> =>
  loadManifest(join(data, `${split}.json`)).then((items) =>
    items.filter((e) => speakers.includes(e.speaker)),
  );
const enrol = await manifest('enroll');
const tune = await manifest('tune');
const tuneLater = await manifest('tune-later');
const month2 = await manifest('month-2');
const month4 = await manifest('month-4');
const label = (e: LoadedItem): string => `${e.text} (${e.speaker})`;
const chosen = [...new Set(enrol.map(label))].slice(0, 200);
// A profile at the size learning from use may grow to (`TRAINING_TAKES_BUDGET`): 66
// phrases of nine takes, three recorded and six confirmed (two tuning days and month 2),
// decoded on month 4. Every third phrase, so that all four speakers are in it as above.
const learntPhrases = chosen
  .filter((_, i) => i % 3 === 0)
  .slice(0, Math.floor(TRAINING_TAKES_BUDGET / (3 + CONFIRMED_TAKES_MAX)));
/** A phrase's recording, as the benchmark trains on and streams it. */
interface Take {
  text: string;
  audio: Float32Array;
}
const takesOf = (list: readonly string[], ...splits: LoadedItem[][]): Take[] =>
  splits
    .flat()
    .filter((e) => list.includes(label(e)))
    .map((e) => ({ text: label(e), audio: e.audio }));
const queriesOf = (list: readonly string[], split: LoadedItem[]): Take[] =>
  takesOf(list, split).map((q) => ({ text: q.text, audio: concatAudio(q.audio, silence(0.5)) }));

/**
 * Train on `items`, then stream every query as the client sends it and time each part;
 * with `generic`, the generic path hears the stream ahead, as for a voice it knows.
 */
function benchProfile(items: readonly Take[], queries: readonly Take[], generic?: SecondOpinion) {
  const cells0 = alignedCells();
  const t0 = performance.now();
  const profile = trainProfile(items);
  const trainMs = performance.now() - t0;
  const trainCells = alignedCells() - cells0;
  const bytes = serializeProfile(profile);
  const matcher = new Matcher(profile);

  const finals: number[] = [];
  // The finals the generic path heard again, and each utterance's longest push (where it
  // caught up with the utterance, before the end-point).
  const heardAgain: number[] = [];
  const longestPushes: number[] = [];
  const streamCells0 = alignedCells();
  let correct = 0;
  let streamMs = 0;
  let streamSeconds = 0;
  for (const q of queries) {
    const stream = new AnsweredStream(
      new RecognitionStream(matcher),
      () => generic,
      Math.ceil(q.audio.length / SAMPLE_RATE) + 1,
    );
    // Every chunk, then the end of the stream: a profile that waits out a long silence may
    // give its final only there.
    let longest = 0;
    for (let i = 0; i < q.audio.length + CHUNK_SAMPLES; i += CHUNK_SAMPLES) {
      const chunk = i < q.audio.length ? q.audio.subarray(i, i + CHUNK_SAMPLES) : undefined;
      const s = performance.now();
      const { found, answered } = chunk === undefined ? stream.end() : stream.push(chunk);
      const spent = performance.now() - s;
      streamMs += spent;
      const final = answered.find((e) => e.type === 'final');
      const profiles = found.find((e) => e.type === 'final');
      if (final !== undefined) {
        finals.push(spent);
        if (profiles !== undefined && generic !== undefined && heardAgainBy(profiles, generic))
          heardAgain.push(spent);
        if (final.alternatives[0]?.text === q.text) correct++;
      }
      longest = Math.max(longest, spent);
    }
    longestPushes.push(longest);
    streamSeconds += q.audio.length / SAMPLE_RATE;
  }
  const streamCells = alignedCells() - streamCells0;
  // The same decision without the head start taken during the end-point silence.
  const full = queries.map((q) => {
    const features = takeFeatures(q.audio, profile.settings).features;
    const s = performance.now();
    matcher.recognise(features);
    return performance.now() - s;
  });
  const figures = {
    phrases: profile.phrases.length,
    takes: items.length,
    enrolled_audio_s: Math.round(items.reduce((n, i) => n + i.audio.length, 0) / SAMPLE_RATE),
    train_ms: Math.round(trainMs),
    // Alignment work in matrix cells: the same on every run, however busy the machine.
    train_cells: trainCells,
    stream_cells_per_utterance: Math.round(streamCells / queries.length),
    model_bytes: bytes.length,
    bytes_per_take: Math.round(bytes.length / items.length),
    p95_final_ms: Number(p95of(finals).toFixed(2)),
    heard_again: heardAgain.length,
    p95_heard_again_final_ms: Number(p95of(heardAgain).toFixed(2)),
    p95_longest_push_ms: Number(p95of(longestPushes).toFixed(2)),
    p95_full_match_ms: Number(p95of(full).toFixed(2)),
    stream_rtf: Number((streamMs / 1000 / streamSeconds).toFixed(4)),
    utterances: queries.length,
    finals: finals.length,
    top1: Number((correct / queries.length).toFixed(3)),
  };
  return { figures, bytes };
}

const p95of = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1] ?? NaN;
const medianOf = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

const enrolled = takesOf(chosen, enrol);
// Warm up the JIT on a small profile so the figures are steady-state.
trainProfile(enrolled.slice(0, 60));
const { figures, bytes } = benchProfile(enrolled, queriesOf(chosen, tune));
// The generic path for a voice it knows, hearing ahead the finals it will hear again
// (0105): the same 200 phrases, each speaker's phrase named with a word for the speaker so
// that all of them are in its dictionary, and its loop of phones.
const speakerWords = ['alpha', 'bravo', 'charlie', 'delta'];
const sayable = (text: string): string =>
  text.replace(/ \((.+)\)$/, (_, speaker: string) => ` ${speakerWords[speakers.indexOf(speaker)] ?? ''}`);
const genericEngine = await SecondOpinion.create(
  await loadSoundSwallower(),
  chosen.map(sayable),
  chosen.map(sayable),
);
if (genericEngine === undefined) throw new Error('The generic path can say none of the phrases.');
const saying = (takes: Take[]): Take[] => takes.map((t) => ({ ...t, text: sayable(t.text) }));
const { figures: withGeneric } = benchProfile(
  saying(enrolled),
  saying(queriesOf(chosen, tune)),
  genericEngine,
);
genericEngine.delete();
// The generic engine adapted to the voice and judged out of fold, as the server's training
// job does after training (0127, 0128): at most 60 s of the 600 takes' words aligned, three
// engines loaded, the judged takes named; the means kept in compact form.
const adaptStart = performance.now();
const adapted = await adaptToVoice(
  await loadSoundSwallower(),
  chosen.map(sayable),
  chosen.map(sayable),
  saying(enrolled),
);
const adaptationMs = Math.round(performance.now() - adaptStart);
const adaptedBytes = adapted?.voice.byteLength ?? 0;
const { figures: learnt } = benchProfile(
  takesOf(learntPhrases, enrol, tune, tuneLater, month2),
  queriesOf(learntPhrases, month4),
);
// Past the budget a retrain keeps each phrase's latest three confirmed takes: all 200
// phrases, confirmed on two tuning days and in month 2, train on 1,200 takes as the server
// would choose them, decoded on month 4.
const confirmed = (split: LoadedItem[]): (Take & TakeOrigin)[] =>
  takesOf(chosen, split).map((t) => ({ ...t, confirmed: true }));
const heavyTakes = takesForTraining([
  ...enrolled.map((t) => ({ ...t, confirmed: false })),
  ...confirmed(tune),
  ...confirmed(tuneLater),
  ...confirmed(month2),
]);
const { figures: heavy } = benchProfile(heavyTakes, queriesOf(chosen, month4));
// Its next retrain as the server runs it once every take's analysis is kept beside the take
// (0073): the kept bytes read back, no audio analysed.
const keptAnalyses = heavyTakes.map((t) => encodeTakeAnalysis(analyseTake(t.audio)));
const retrainStart = performance.now();
trainProfile(
  keptAnalyses.map((bytes, i) => ({ text: heavyTakes[i]?.text ?? '', analysis: decodeTakeAnalysis(bytes) })),
);
const retrainMs = Math.round(performance.now() - retrainStart);
const analysisBytesPerTake = Math.round(keptAnalyses.reduce((n, b) => n + b.length, 0) / keptAnalyses.length);

// The speech encoder's third opinion (docs/decisions/0144-0146; the server's, not yet the
// browser's): each enrolled take's words viewed as training views them, and each utterance's
// viewed and judged against the 600 takes as a rejected final is.
const encoder = await loadSpeechEncoder();
const viewMs: number[] = [];
const viewed = async (audio: Float32Array) => {
  const started = performance.now();
  const words = encoderHearsTake(audio);
  const view = await encoder.view(words);
  viewMs.push((performance.now() - started) / (words.length / SAMPLE_RATE));
  return view;
};
const encoderTemplates: EncoderTemplate[] = [];
for (const take of enrolled) encoderTemplates.push(encoderTemplate(take.text, await viewed(take.audio)));
const opinionMs: number[] = [];
const opinionCells0 = alignedCells();
let encoderRight = 0;
const encoderQueries = queriesOf(chosen, tune);
for (const query of encoderQueries) {
  const view = await viewed(query.audio);
  const started = performance.now();
  const opinion = encoderOpinion(view, encoderTemplates);
  opinionMs.push(performance.now() - started);
  if (opinion?.text === query.text) encoderRight++;
}
// The views file a server keeps beside the profile, and reading it as a profile is loaded.
const viewsFile = serializeEncoderViews(encoderTemplates);
const viewsLoadMs = Array.from({ length: 10 }, () => {
  const started = performance.now();
  deserializeEncoderViews(viewsFile);
  return performance.now() - started;
});
const encoderOpinionCosts = {
  view_ms_per_audio_second_median: Math.round(medianOf(viewMs)),
  view_ms_per_audio_second_p95: Math.round(p95of(viewMs)),
  view_bytes_per_take_8_bit: Math.round(
    encoderTemplates.reduce((n, t) => n + t.view.frames * t.view.dim, 0) / encoderTemplates.length,
  ),
  p95_opinion_ms: Number(p95of(opinionMs).toFixed(2)),
  opinion_cells: Math.round((alignedCells() - opinionCells0) / encoderQueries.length),
  top1: Number((encoderRight / encoderQueries.length).toFixed(3)),
  views_file_bytes: viewsFile.length,
  views_load_ms_median: Number(medianOf(viewsLoadMs).toFixed(1)),
};

const gc = (globalThis as { gc?: () => void }).gc;
// Freed typed arrays give their memory back only after the collection that found them, so
// one collection before each reading left the figure to chance (-1.5 to 4.1 MB for the
// same profile); a few rounds with the event loop turning between them settle it.
const settle = async (): Promise<void> => {
  for (let round = 0; round < 4; round++) {
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
};
await settle();
const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
// Each load timed too: a server reads a profile on the thread that serves every stream.
const loadMs: number[] = [];
const loaded = Array.from({ length: 10 }, () => {
  const started = performance.now();
  const matcher = new Matcher(deserializeProfile(bytes));
  loadMs.push(performance.now() - started);
  return matcher;
});
await settle();
const after = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
const perProfile = (after - before) / loaded.length;

const report = {
  ...figures,
  train_budget_ms: 10_000,
  p95_budget_ms: 30,
  rtf_budget: 0.05,
  memory_per_profile_kb: Math.round(perProfile / 1024),
  median_profile_load_ms: Number(medianOf(loadMs).toFixed(2)),
  with_generic_path: {
    p95_final_ms: withGeneric.p95_final_ms,
    finals: withGeneric.finals,
    heard_again: withGeneric.heard_again,
    p95_heard_again_final_ms: withGeneric.p95_heard_again_final_ms,
    p95_longest_push_ms: withGeneric.p95_longest_push_ms,
    stream_rtf: withGeneric.stream_rtf,
  },
  generic_adaptation_ms: adaptationMs,
  generic_adapted_means_bytes: adaptedBytes,
  learnt_from_use: learnt,
  encoder_opinion: encoderOpinionCosts,
  used_past_budget: {
    ...heavy,
    retrain_from_kept_analyses_ms: retrainMs,
    analysis_bytes_per_take: analysisBytesPerTake,
  },
};
console.log(
  `training ${report.takes} takes (${report.phrases} phrases, ${report.enrolled_audio_s} s of audio): ${report.train_ms} ms (budget 10000), ${(report.train_cells / 1e6).toFixed(2)} million alignment cells`,
);
console.log(
  `model ${report.model_bytes} bytes, ${report.bytes_per_take} bytes per take; ${report.memory_per_profile_kb} KB per loaded profile, loaded in ${report.median_profile_load_ms} ms (median of ${loadMs.length})`,
);
console.log(
  `final result p95 ${report.p95_final_ms} ms after the end-point (budget 30); a whole match from scratch p95 ${report.p95_full_match_ms} ms; streaming RTF ${report.stream_rtf} (budget 0.05), ${report.stream_cells_per_utterance} alignment cells per utterance`,
);
console.log(
  `with the generic path hearing ahead (a voice it knows): final result p95 ${withGeneric.p95_final_ms} ms after the end-point (budget 30), ${withGeneric.p95_heard_again_final_ms} ms for the ${withGeneric.heard_again} of ${withGeneric.finals} finals it heard again; longest push of an utterance p95 ${withGeneric.p95_longest_push_ms} ms; streaming RTF ${withGeneric.stream_rtf} (budget 0.05)`,
);
console.log(
  `the generic engine adapted to the voice on at most ${ADAPTATION_SECONDS} s of its words and judged out of fold: ${adaptationMs} ms, its means ${adaptedBytes} bytes`,
);
console.log(
  `learnt from use, ${learnt.takes} takes (${learnt.phrases} phrases of ${3 + CONFIRMED_TAKES_MAX}): training ${learnt.train_ms} ms, ${(learnt.train_cells / 1e6).toFixed(2)} million alignment cells; final result p95 ${learnt.p95_final_ms} ms; a whole match p95 ${learnt.p95_full_match_ms} ms; streaming RTF ${learnt.stream_rtf}, ${learnt.stream_cells_per_utterance} cells per utterance; top-1 ${learnt.top1}`,
);
console.log(
  `used past the budget, ${heavy.takes} takes (${heavy.phrases} phrases of 6): training ${heavy.train_ms} ms (budget 10000), ${(heavy.train_cells / 1e6).toFixed(2)} million alignment cells; final result p95 ${heavy.p95_final_ms} ms; a whole match p95 ${heavy.p95_full_match_ms} ms; streaming RTF ${heavy.stream_rtf}; top-1 ${heavy.top1}; retrained from its takes' kept analyses (${analysisBytesPerTake} bytes a take) in ${retrainMs} ms`,
);
console.log(
  `the speech encoder's opinion (the server's and the browser worker's): a view ${encoderOpinionCosts.view_ms_per_audio_second_median} ms per second of audio (p95 ${encoderOpinionCosts.view_ms_per_audio_second_p95}) as WebAssembly on one thread, ${encoderOpinionCosts.view_bytes_per_take_8_bit} bytes a take as 8-bit values; judged against the ${encoderTemplates.length} takes p95 ${encoderOpinionCosts.p95_opinion_ms} ms, ${encoderOpinionCosts.opinion_cells} alignment cells; its first guess right ${encoderOpinionCosts.top1}; the views file ${encoderOpinionCosts.views_file_bytes} bytes, read in ${encoderOpinionCosts.views_load_ms_median} ms`,
);
console.log(JSON.stringify(report));
