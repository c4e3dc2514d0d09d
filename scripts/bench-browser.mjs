// `npm run bench:browser`: local mode's recogniser in real Chromium, beside the same requests
// in Node. The worker is the one the app ships, the profile the one the server trained and the
// browser downloads (200 phrases x 3 takes of real speech, FSDD), the utterances held-out takes
// pushed in the app's 3200-sample chunks. Each push is timed from the page, so the figures
// include the messages to and from the worker, as the app waits for them (the page's clock
// steps in 0.1 ms, as Chromium's does where a page is not cross-origin isolated). Three ways:
// the profile alone, with the generic path hearing ahead, and with the speech encoder too,
// which views each final both turn away (the bench profile turns most away, see below).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { SPEECH_ENCODER_FILE, SPEECH_ENCODER_PATH, SPEECH_MODEL_PATH } from '@parla/contract';
import { createSpeechHandlers, handleSpeechRequest } from '@parla/speech';
import { loadSoundSwallower, loadSpeechEncoder, placeVoiceMeans } from '@parla/speech/node';
import { chromium } from 'playwright-core';
import { signUpBenchUser, startBenchServer } from './bench-server.mjs';
import { quantile, SPEAKERS, trainBenchProfile, utterancePcm } from './bench-speech.mjs';
import { root } from './lib.mjs';

const UTTERANCES = Number(process.env.BENCH_UTTERANCES ?? 100);

/**
 * What local mode asks of its recogniser, timed: the profile loaded, the generic path loaded
 * with the person's adapted means (with `generic`), the speech encoder with the views of the
 * profile's takes (with `encoder`), then each utterance through a stream of its own. Runs in
 * Node and, as its source, in the page; `call(name, args)` answers a request.
 */
async function listen(
  call,
  { model, voice, views, phrases, pronunciations, modelBase, encoderUrl, utterances, generic, encoder },
) {
  const time = async (work) => {
    const start = performance.now();
    const result = await work();
    return [performance.now() - start, result];
  };
  const [loadProfileMs] = await time(() => call('load-profile', { model }));
  let useGenericMs = null;
  if (generic) {
    const means = voice === null ? {} : { voice: { key: 'voice', means: voice } };
    const words = pronunciations === null ? {} : { pronunciations };
    [useGenericMs] = await time(() => call('use-generic', { modelBase, phrases, ...means, ...words }));
  }
  let useEncoderMs = null;
  if (encoder) [useEncoderMs] = await time(() => call('use-encoder', { modelUrl: encoderUrl, views }));
  const finals = [];
  const answers = [];
  let pushMs = 0;
  let seconds = 0;
  for (const [index, pcm] of utterances.entries()) {
    const streamId = `utterance-${index}`;
    await call('open-stream', { streamId });
    let answer = null;
    const heard = (spent, events) => {
      pushMs += spent;
      const final = events.find((event) => event.type === 'final');
      if (final === undefined) return;
      finals.push(spent);
      // The first guess, accepted or not: the bench profile's phrases come four to a digit
      // and speaker, so held-out takes are mostly turned away between them.
      answer ??= final.alternatives[0]?.text ?? null;
    };
    for (let at = 0; at < pcm.length; at += 3200) {
      const samples = new Float32Array(Math.min(3200, pcm.length - at));
      for (let j = 0; j < samples.length; j += 1) samples[j] = pcm[at + j] / 32768;
      heard(...(await time(() => call('push-audio', { streamId, samples }))));
    }
    heard(...(await time(() => call('close-stream', { streamId }))));
    answers.push(answer);
    seconds += pcm.length / 16000;
  }
  return { loadProfileMs, useGenericMs, useEncoderMs, finals, answers, rtf: pushMs / 1000 / seconds };
}

/** Node: the same handlers the worker serves, called directly. */
async function inNode(data) {
  const handlers = createSpeechHandlers({
    loadGeneric: () => loadSoundSwallower(),
    placeVoiceMeans,
    loadEncoder: () => loadSpeechEncoder(),
  });
  let id = 0;
  const call = async (name, args) => {
    const reply = await handleSpeechRequest(handlers, { id: (id += 1), name, args });
    if (!reply.ok) throw new Error(`${name}: ${reply.error.message}`);
    return reply.result;
  };
  return listen(call, data);
}

/** Chromium: the app's worker, on a page of the app's origin, fed through page routes. */
async function inChromium(serverUrl, data) {
  const workerFile = readdirSync(path.join(root, 'apps/web/dist/assets')).find((file) =>
    /^recognition\.worker-.*\.js$/.test(file),
  );
  if (workerFile === undefined) throw new Error('No built recognition worker: run `npm run build`.');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    // The app's policy allows no code from strings; the benchmark's own page code needs it.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const offsets = [0];
    for (const pcm of data.utterances) offsets.push(offsets.at(-1) + pcm.length);
    const audio = new Int16Array(offsets.at(-1));
    data.utterances.forEach((pcm, i) => audio.set(pcm, offsets[i]));
    const blobs = {
      model: data.model,
      voice: data.voice ?? new Uint8Array(),
      views: data.views ?? new Uint8Array(),
      audio: new Uint8Array(audio.buffer),
    };
    await page.route('**/bench/*', (route) =>
      route.fulfill({ body: Buffer.from(blobs[route.request().url().split('/').at(-1)]) }),
    );
    await page.goto(`${serverUrl}/login`);
    return await page.evaluate(
      async ({ source, workerUrl, offsets, hasVoice, ...rest }) => {
        const bytes = async (name) => new Uint8Array(await (await fetch(`/bench/${name}`)).arrayBuffer());
        const audio = new Int16Array((await bytes('audio')).buffer);
        const utterances = offsets.slice(1).map((end, i) => audio.subarray(offsets[i], end));
        const worker = new Worker(workerUrl, { type: 'module' });
        const waiting = new Map();
        worker.onmessage = ({ data: reply }) => {
          waiting.get(reply.id)(reply);
          waiting.delete(reply.id);
        };
        let id = 0;
        const call = (name, args) =>
          new Promise((resolve, reject) => {
            id += 1;
            waiting.set(id, (reply) =>
              reply.ok ? resolve(reply.result) : reject(new Error(`${name}: ${reply.error.message}`)),
            );
            worker.postMessage({ id, name, args });
          });
        const listenHere = new Function(`return ${source}`)();
        const data = {
          ...rest,
          model: await bytes('model'),
          voice: hasVoice ? await bytes('voice') : null,
          views: await bytes('views'),
          utterances,
        };
        const result = await listenHere(call, data);
        worker.terminate();
        return result;
      },
      {
        source: listen.toString(),
        workerUrl: `/assets/${workerFile}`,
        offsets,
        hasVoice: data.voice !== null,
        phrases: data.phrases,
        pronunciations: data.pronunciations,
        modelBase: data.modelBase,
        encoderUrl: data.encoderUrl,
        generic: data.generic,
        encoder: data.encoder,
      },
    );
  } finally {
    await browser.close();
  }
}

const server = await startBenchServer();
try {
  const user = await signUpBenchUser(server.url);
  const auth = { headers: { authorization: `Bearer ${user.token}` } };
  const get = async (url) => {
    const response = await fetch(`${server.url}${url}`, auth);
    if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
    return response;
  };
  const trained = await trainBenchProfile(server.url, user.token);
  const { links } = await (await get('/app/end_user/model_links')).json();
  const file = async (name) => {
    const link = links.find((candidate) => candidate.name === name);
    return link === undefined ? null : new Uint8Array(await (await get(link.url)).arrayBuffer());
  };
  const model = await file('profile');
  const voice = await file('voice');
  const views = await file('views');
  if (views === null) throw new Error('The bench profile has no views of its takes for the speech encoder.');
  const { phrases } = await (await get('/app/casr/phrases')).json();
  // How the generic engine says the phrases' words, as the app sends its worker.
  const { pronunciations } = await (await get('/app/casr/pronunciations')).json();
  const utterances = Array.from({ length: UTTERANCES }, (_, i) => utterancePcm(i));
  const common = {
    model,
    voice,
    phrases: phrases.map((phrase) => phrase.text),
    pronunciations,
    modelBase: new URL(SPEECH_MODEL_PATH, server.url).href,
    views,
    encoderUrl: new URL(`${SPEECH_ENCODER_PATH}${SPEECH_ENCODER_FILE}`, server.url).href,
    utterances,
  };

  const ms = (value) => (value === null ? '-' : `${value.toFixed(value < 10 ? 2 : 0)} ms`);
  // The bench profile has four phrases a digit and speaker: a first guess of any of them is right.
  const rightGuesses = (answers) =>
    answers.filter((text, i) => text?.startsWith(`digit ${i % 10} ${SPEAKERS[i % SPEAKERS.length]} `)).length;
  const figures = (run) => ({
    load_profile_ms: Math.round(run.loadProfileMs),
    use_generic_ms: run.useGenericMs === null ? null : Math.round(run.useGenericMs),
    use_encoder_ms: run.useEncoderMs === null ? null : Math.round(run.useEncoderMs),
    p95_final_ms: quantile(
      [...run.finals].sort((a, b) => a - b),
      0.95,
    ),
    stream_rtf: run.rtf,
    first_guess_right: rightGuesses(run.answers),
  });
  const report = { phrases: trained.phrases, takes: trained.takes, utterances: UTTERANCES };
  const ways = [
    { key: 'profile_alone', generic: false, encoder: false },
    { key: 'with_generic_path', generic: true, encoder: false },
    { key: 'with_generic_path_and_encoder', generic: true, encoder: true },
  ];
  for (const { key, generic, encoder } of ways) {
    const node = await inNode({ ...common, generic, encoder });
    const page = await inChromium(server.url, { ...common, generic, encoder });
    const same = node.answers.filter((text, i) => text === page.answers[i]).length;
    const both = { node: figures(node), chromium: figures(page), same_first_guess: same };
    report[key] = both;
    const means = voice === null ? "the model's own means" : 'means adapted to the voice';
    const way = generic ? `with the generic path hearing ahead (${means})` : 'the profile alone';
    console.log(
      `${way}${encoder ? ' and the speech encoder hearing what both turn away' : ''}, ${trained.phrases} phrases, ${trained.takes} takes, ${UTTERANCES} utterances:`,
    );
    for (const [where, f] of [
      ['  Node    ', both.node],
      ['  Chromium', both.chromium],
    ]) {
      const encoderLoaded = encoder ? `, encoder in ${ms(f.use_encoder_ms)}` : '';
      console.log(
        `${where} profile loaded in ${ms(f.load_profile_ms)}, generic path in ${ms(f.use_generic_ms)}${encoderLoaded}; final result p95 ${ms(f.p95_final_ms)} after the end-point (budget 30); streaming RTF ${f.stream_rtf.toFixed(4)} (budget 0.05); first guess right ${f.first_guess_right} of ${UTTERANCES}`,
      );
    }
    console.log(`  the same first guess in both: ${same} of ${UTTERANCES}`);
  }
  // Where the pronunciations cannot be fetched, the worker's engine reads its whole dictionary.
  const whole = await inChromium(server.url, {
    ...common,
    pronunciations: null,
    utterances: [],
    generic: true,
  });
  report.with_generic_path.chromium.use_generic_whole_dictionary_ms = Math.round(whole.useGenericMs);
  console.log(`Chromium's generic path reading its whole dictionary instead: ${ms(whole.useGenericMs)}`);
  console.log(JSON.stringify(report));
} finally {
  await server.stop();
}
