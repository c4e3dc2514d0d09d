// `npm run bench:realtime`: latency of live recognition on loopback, from the last audio
// chunk sent to the `recognition` event, with a 200-phrase x 3-take profile of real speech.
// Audio is paced in real time, 3200 samples (0.2 s) per chunk, as the browser sends it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { wavToMono16k } from '@parla/speech';
import { io } from 'socket.io-client';
import { root } from './lib.mjs';
import { signUpBenchUser, startBenchServer } from './bench-server.mjs';

const FSDD = path.resolve(root, '../shared/data/fsdd/recordings');
const SPEAKERS = ['jackson', 'theo', 'nicolas', 'yweweler', 'lucas', 'george'];
const UTTERANCES = Number(process.env.BENCH_UTTERANCES ?? 20);
const take = (digit, speaker, n) => readFileSync(path.join(FSDD, `${digit}_${speaker}_${n}.wav`));

const server = await startBenchServer();
try {
  const user = await signUpBenchUser(server.url);
  const auth = { authorization: `Bearer ${user.token}` };
  // 200 phrases: each digit-speaker pair in groups of three takes (0-2, 3-5, ...).
  const phrases = [];
  outer: for (let group = 0; group < 4; group += 1) {
    for (const speaker of SPEAKERS) {
      for (let digit = 0; digit < 10; digit += 1) {
        if (phrases.length === 200) break outer;
        const response = await fetch(`${server.url}/app/casr/customPhrase`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ text: `digit ${digit} ${speaker} ${group}`, scenario_id: 'conversation' }),
        });
        phrases.push({ id: (await response.json()).id, digit, speaker, group });
      }
    }
  }
  let accepted = 0;
  for (const phrase of phrases) {
    for (let n = 0; n < 3; n += 1) {
      const form = new FormData();
      form.append(
        'audiofile',
        new Blob([take(phrase.digit, phrase.speaker, phrase.group * 3 + n)]),
        'take.wav',
      );
      const response = await fetch(`${server.url}/app/casr/upload/training/${phrase.id}`, {
        method: 'POST',
        headers: auth,
        body: form,
      });
      if (response.status === 201) accepted += 1;
      else console.log(`take refused: ${(await response.json()).message}`);
    }
  }
  for (;;) {
    const info = await (await fetch(`${server.url}/app/modelsInfo`, { headers: auth })).json();
    if (info.models[0]?.modelmeta.takes === accepted) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const socket = io(server.url, {
    path: '/socket.io',
    auth: { token: user.token, user_id: user.userId },
    transports: ['websocket'],
  });
  await new Promise((resolve) => socket.once('connection_ready', resolve));
  socket.emit('select_provider', { provider_id: 'casr' });
  await new Promise((resolve) => socket.once('model_ready', resolve));

  const latencies = [];
  for (let i = 0; i < UTTERANCES; i += 1) {
    const speech = wavToMono16k(take(i % 10, SPEAKERS[i % SPEAKERS.length], 20 + (i % 10)));
    const samples = new Float32Array(8000 + speech.length + 16_000);
    samples.set(speech, 8000);
    const pcm = new Int16Array(samples.length);
    for (let j = 0; j < samples.length; j += 1) pcm[j] = Math.round(samples[j] * 32767);
    let lastSent = 0;
    const result = new Promise((resolve) =>
      socket.once('recognition', () => resolve(performance.now() - lastSent)),
    );
    let done = false;
    void result.then(() => (done = true));
    for (let offset = 0; offset < pcm.length && !done; offset += 3200) {
      socket.emit(
        'stream_audio_samples',
        new Uint8Array(pcm.buffer, offset * 2, Math.min(3200, pcm.length - offset) * 2),
      );
      lastSent = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    latencies.push(await result);
    socket.emit('stop_stream_processing');
    await new Promise((resolve) => socket.once('request_received', resolve));
  }
  socket.disconnect();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  console.log(
    `Last chunk to recognition, ${phrases.length} phrases, ${accepted} takes, ${UTTERANCES} utterances: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`,
  );
} finally {
  await server.stop();
}
