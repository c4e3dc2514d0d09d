// Shared by the realtime benchmarks: a 200-phrase profile trained over HTTP from real
// speech (FSDD), and utterances to stream, paced like the browser sends them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { wavToMono16k } from '@parla/speech';
import { root } from './lib.mjs';

const FSDD = path.resolve(root, '../shared/data/fsdd/recordings');
export const SPEAKERS = ['jackson', 'theo', 'nicolas', 'yweweler', 'lucas', 'george'];
const take = (digit, speaker, n) => readFileSync(path.join(FSDD, `${digit}_${speaker}_${n}.wav`));

/** A phrase added as the app adds one; resolves with its id. */
async function addPhrase(url, auth, text) {
  const response = await fetch(`${url}/app/casr/customPhrase`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ text, scenario_id: 'conversation' }),
  });
  return (await response.json()).id;
}

/** A take uploaded as the browser would; resolves with whether the server kept it. */
async function uploadTake(url, auth, phraseId, wav) {
  const form = new FormData();
  form.append('audiofile', new Blob([wav]), 'take.wav');
  const response = await fetch(`${url}/app/casr/upload/training/${phraseId}`, {
    method: 'POST',
    headers: auth,
    body: form,
  });
  if (response.status === 201) return true;
  console.log(`take refused: ${(await response.json()).message}`);
  return false;
}

/** The newest model's meta, once `ready` says it is the one waited for. */
async function modelMetaOnce(url, auth, ready) {
  for (;;) {
    const info = await (await fetch(`${url}/app/modelsInfo`, { headers: auth })).json();
    const meta = info.models[0]?.modelmeta;
    if (meta !== undefined && ready(meta)) return meta;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * 200 phrases, each a digit-speaker pair with three takes (0-2, 3-5, ...), uploaded as the
 * browser would; resolves when the model holds every accepted take.
 */
export async function trainBenchProfile(url, token) {
  const auth = { authorization: `Bearer ${token}` };
  const phrases = [];
  outer: for (let group = 0; group < 4; group += 1) {
    for (const speaker of SPEAKERS) {
      for (let digit = 0; digit < 10; digit += 1) {
        if (phrases.length === 200) break outer;
        const id = await addPhrase(url, auth, `digit ${digit} ${speaker} ${group}`);
        phrases.push({ id, digit, speaker, group });
      }
    }
  }
  let accepted = 0;
  for (const phrase of phrases) {
    for (let n = 0; n < 3; n += 1) {
      const wav = take(phrase.digit, phrase.speaker, phrase.group * 3 + n);
      if (await uploadTake(url, auth, phrase.id, wav)) accepted += 1;
    }
  }
  await modelMetaOnce(url, auth, (meta) => meta.takes === accepted);
  return { phrases: phrases.length, takes: accepted, retrain: () => retrainBenchProfile(url, auth, phrases) };
}

/**
 * One more take of the profile's first phrase, which retrains the whole profile as the
 * server retrains after a take. Resolves once the upload is stored, with a promise of the
 * moment the new model is out.
 */
async function retrainBenchProfile(url, auth, phrases) {
  const before = await (await fetch(`${url}/app/modelsInfo`, { headers: auth })).json();
  const version = before.models[0]?.version ?? 0;
  const [phrase] = phrases;
  const extra = 12 + Math.floor(Math.random() * 8);
  if (!(await uploadTake(url, auth, phrase.id, take(phrase.digit, phrase.speaker, extra))))
    throw new Error('the take that retrains the profile was refused');
  return {
    trained: (async () => {
      for (;;) {
        const info = await (await fetch(`${url}/app/modelsInfo`, { headers: auth })).json();
        if ((info.models[0]?.version ?? 0) > version) return performance.now();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })(),
  };
}

/**
 * A profile the generic path is trusted with: the ten digits as words, three takes each of one
 * FSDD speaker, so that training adapts the engine to that voice and judges it; resolves once
 * the model holds every accepted take and says how well the adapted engine knows the voice.
 */
export async function trainKnownVoiceProfile(url, token, speaker = 'jackson') {
  const auth = { authorization: `Bearer ${token}` };
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
  let accepted = 0;
  for (const [digit, text] of words.entries()) {
    const id = await addPhrase(url, auth, text);
    for (let n = 0; n < 3; n += 1)
      if (await uploadTake(url, auth, id, take(digit, speaker, n))) accepted += 1;
  }
  const meta = await modelMetaOnce(url, auth, (m) => m.takes === accepted && 'voice_knows' in m);
  return { phrases: words.length, takes: accepted, speaker, voiceKnows: meta.voice_knows };
}

/**
 * Utterance i: a held-out take (20-29) of digit i, by `speaker` or the six speakers in turn,
 * with 0.5 s of silence before and 1 s after, as 16-bit PCM.
 */
export function utterancePcm(i, speaker = SPEAKERS[i % SPEAKERS.length]) {
  const speech = wavToMono16k(take(i % 10, speaker, 20 + (i % 10)));
  const samples = new Float32Array(8000 + speech.length + 16_000);
  samples.set(speech, 8000);
  const pcm = new Int16Array(samples.length);
  for (let j = 0; j < samples.length; j += 1) pcm[j] = Math.round(samples[j] * 32767);
  return pcm;
}

/**
 * Streams one utterance in 3200-sample chunks every 0.2 s until the `recognition` event,
 * then releases the press. `result`: ms from the last chunk sent to that event; `ended`: ms
 * from the release (`stop_stream_processing`) to `stream_ended`, when the page clears its
 * processing flag.
 */
export async function streamUtterance(socket, pcm) {
  let lastSent = 0;
  let done = false;
  const recognised = new Promise((resolve) =>
    socket.once('recognition', () => {
      done = true;
      resolve(performance.now() - lastSent);
    }),
  );
  for (let offset = 0; offset < pcm.length && !done; offset += 3200) {
    socket.emit(
      'stream_audio_samples',
      new Uint8Array(pcm.buffer, offset * 2, Math.min(3200, pcm.length - offset) * 2),
    );
    lastSent = performance.now();
    await pace();
  }
  const result = await recognised;
  const { ms: ended } = await releasePress(socket);
  return { result, ended };
}

/**
 * A press in which the person says nothing: `seconds` of a quiet room (noise 60 dB under full
 * scale), then the release. Resolves with the ms from the release to `stream_ended` and its
 * outcome, which the page turns into "Nothing was heard".
 */
export async function streamNothing(socket, seconds = 1.2) {
  const chunk = new Int16Array(3200);
  for (let n = 0; n < Math.round((seconds * 16_000) / 3200); n += 1) {
    for (let j = 0; j < chunk.length; j += 1) chunk[j] = Math.round((Math.random() - 0.5) * 64);
    socket.emit('stream_audio_samples', new Uint8Array(chunk.buffer.slice(0)));
    await pace();
  }
  return releasePress(socket);
}

/** One chunk's worth of real time. */
const pace = () => new Promise((resolve) => setTimeout(resolve, 200));

/** Releases the press; the ms until the stream's `stream_ended`, and its outcome. */
async function releasePress(socket) {
  const ended = new Promise((resolve) => socket.once('stream_ended', resolve));
  const released = performance.now();
  socket.emit('stop_stream_processing');
  const { outcome } = await ended;
  return { ms: performance.now() - released, outcome };
}

/** The value at quantile q of sorted numbers. */
export const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
