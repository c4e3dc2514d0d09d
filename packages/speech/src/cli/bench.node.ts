import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Matcher } from '../decode/matcher.js';
import { RecognitionStream } from '../decode/streaming.js';
import { alignedCells } from '../model/dtw.js';
import { deserializeProfile, serializeProfile } from '../model/serialize.js';
import { trainProfile, type TrainingItem } from '../model/train.js';
import { takeFeatures } from '../model/features-of-take.js';
import { loadManifest } from '../platform/files.node.js';
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
const join2 = (...parts: Float32Array[]): Float32Array => {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

// 200 phrases: the everyday phrases of four mild and moderate synthetic speakers, each
// (speaker, phrase) pair enrolled as its own phrase, with three takes each.
const speakers = ['syn-mild-1', 'syn-mild-2', 'syn-moderate-1', 'syn-moderate-2'];
const enrol = await loadManifest(join(data, 'enroll.json'));
const tune = await loadManifest(join(data, 'tune.json'));
const label = (e: LoadedItem): string => `${e.text} (${e.speaker})`;
const chosen = [...new Set(enrol.filter((e) => speakers.includes(e.speaker)).map(label))].slice(0, 200);
const items: TrainingItem[] = enrol
  .filter((e) => chosen.includes(label(e)))
  .map((e) => ({ text: label(e), audio: e.audio }));
const queries = tune
  .filter((e) => chosen.includes(label(e)))
  .map((e) => ({ text: label(e), audio: join2(e.audio, silence(0.5)) }));
const seconds = items.reduce((n, i) => n + i.audio.length, 0) / SAMPLE_RATE;

// Warm up the JIT on a small profile so the figures are steady-state.
trainProfile(items.slice(0, 60));
const cells0 = alignedCells();
const t0 = performance.now();
const profile = trainProfile(items);
const trainMs = performance.now() - t0;
const trainCells = alignedCells() - cells0;
const bytes = serializeProfile(profile);
const matcher = new Matcher(profile);

const finals: number[] = [];
const streamCells0 = alignedCells();
let correct = 0;
let streamMs = 0;
let streamSeconds = 0;
for (const q of queries) {
  const stream = new RecognitionStream(matcher);
  // Every chunk, then the end of the stream: a profile that waits out a long silence may
  // give its final only there.
  for (let i = 0; i < q.audio.length + CHUNK_SAMPLES; i += CHUNK_SAMPLES) {
    const chunk = i < q.audio.length ? q.audio.subarray(i, i + CHUNK_SAMPLES) : undefined;
    const s = performance.now();
    const events = chunk === undefined ? stream.end() : stream.push(chunk);
    const spent = performance.now() - s;
    streamMs += spent;
    const final = events.find((e) => e.type === 'final');
    if (final !== undefined) {
      finals.push(spent);
      if (final.alternatives[0]?.text === q.text) correct++;
    }
  }
  streamSeconds += q.audio.length / SAMPLE_RATE;
}
const streamCells = alignedCells() - streamCells0;
const p95of = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1] ?? NaN;
const p95 = p95of(finals);
// The same decision without the head start taken during the end-point silence.
const full = queries.map((q) => {
  const features = takeFeatures(q.audio, profile.settings).features;
  const s = performance.now();
  matcher.recognise(features);
  return performance.now() - s;
});
const p95Full = p95of(full);

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
const loaded = Array.from({ length: 10 }, () => new Matcher(deserializeProfile(bytes)));
await settle();
const after = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
const perProfile = (after - before) / loaded.length;

const report = {
  phrases: profile.phrases.length,
  takes: items.length,
  enrolled_audio_s: Math.round(seconds),
  train_ms: Math.round(trainMs),
  train_budget_ms: 10_000,
  // Alignment work in matrix cells: the same on every run, however busy the machine.
  train_cells: trainCells,
  stream_cells_per_utterance: Math.round(streamCells / queries.length),
  model_bytes: bytes.length,
  bytes_per_take: Math.round(bytes.length / items.length),
  p95_final_ms: Number(p95.toFixed(2)),
  p95_budget_ms: 30,
  p95_full_match_ms: Number(p95Full.toFixed(2)),
  stream_rtf: Number((streamMs / 1000 / streamSeconds).toFixed(4)),
  rtf_budget: 0.05,
  memory_per_profile_kb: Math.round(perProfile / 1024),
  utterances: queries.length,
  finals: finals.length,
  top1_200_phrases: Number((correct / queries.length).toFixed(3)),
};
console.log(
  `training ${report.takes} takes (${report.phrases} phrases, ${report.enrolled_audio_s} s of audio): ${report.train_ms} ms (budget 10000), ${(report.train_cells / 1e6).toFixed(2)} million alignment cells`,
);
console.log(
  `model ${report.model_bytes} bytes, ${report.bytes_per_take} bytes per take; ${report.memory_per_profile_kb} KB per loaded profile`,
);
console.log(
  `final result p95 ${report.p95_final_ms} ms after the end-point (budget 30); a whole match from scratch p95 ${report.p95_full_match_ms} ms; streaming RTF ${report.stream_rtf} (budget 0.05), ${report.stream_cells_per_utterance} alignment cells per utterance`,
);
console.log(JSON.stringify(report));
