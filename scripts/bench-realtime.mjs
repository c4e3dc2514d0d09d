// `npm run bench:realtime`: latency of live recognition on loopback, from the last audio
// chunk sent to the `recognition` event, with a 200-phrase x 3-take profile of real speech.
// Audio is paced in real time, 3200 samples (0.2 s) per chunk, as the browser sends it.
import { io } from 'socket.io-client';
import { signUpBenchUser, startBenchServer } from './bench-server.mjs';
import { quantile, streamUtterance, trainBenchProfile, utterancePcm } from './bench-speech.mjs';

const UTTERANCES = Number(process.env.BENCH_UTTERANCES ?? 20);

const server = await startBenchServer();
try {
  const user = await signUpBenchUser(server.url);
  const profile = await trainBenchProfile(server.url, user.token);
  const socket = io(server.url, {
    path: '/socket.io',
    auth: { token: user.token, user_id: user.userId },
    transports: ['websocket'],
  });
  await new Promise((resolve) => socket.once('connection_ready', resolve));
  socket.emit('select_provider', { provider_id: 'casr' });
  await new Promise((resolve) => socket.once('model_ready', resolve));

  const latencies = [];
  for (let i = 0; i < UTTERANCES; i += 1) latencies.push(await streamUtterance(socket, utterancePcm(i)));
  socket.disconnect();
  latencies.sort((a, b) => a - b);
  const at = (q) => quantile(latencies, q).toFixed(1);
  console.log(
    `Last chunk to recognition, ${profile.phrases} phrases, ${profile.takes} takes, ${UTTERANCES} utterances: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`,
  );
} finally {
  await server.stop();
}
