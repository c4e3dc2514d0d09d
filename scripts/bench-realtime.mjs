// `npm run bench:realtime`: latency of live recognition on loopback, from the last audio
// chunk sent to the `recognition` event, with a 200-phrase x 3-take profile of real speech;
// and from the release of a press to `stream_ended`, after speech and after a press in which
// nothing was said (the page's "Nothing was heard"). Audio is paced in real time, 3200
// samples (0.2 s) per chunk, as the browser sends it.
import { io } from 'socket.io-client';
import { signUpBenchUser, startBenchServer } from './bench-server.mjs';
import {
  quantile,
  streamNothing,
  streamUtterance,
  trainBenchProfile,
  utterancePcm,
} from './bench-speech.mjs';

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

  // Quiet presses first: after speech the stream starts from the quietest floor it heard
  // (the utterances' exact zeros and soft edges), over which this room's noise is a sound.
  const nothing = [];
  for (let i = 0; i < UTTERANCES; i += 1) {
    const { ms, outcome } = await streamNothing(socket);
    if (outcome !== 'nothing_heard') throw new Error(`a press of a quiet room ended ${outcome}`);
    nothing.push(ms);
  }
  const results = [];
  const ends = [];
  for (let i = 0; i < UTTERANCES; i += 1) {
    const { result, ended } = await streamUtterance(socket, utterancePcm(i));
    results.push(result);
    ends.push(ended);
  }
  socket.disconnect();
  const figures = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q) => quantile(sorted, q).toFixed(1);
    return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`;
  };
  console.log(
    `Last chunk to recognition, ${profile.phrases} phrases, ${profile.takes} takes, ${UTTERANCES} utterances: ${figures(results)}`,
  );
  console.log(`Release to stream_ended after a recognition: ${figures(ends)}`);
  console.log(`Release to stream_ended in a press of a quiet room (nothing heard): ${figures(nothing)}`);
} finally {
  await server.stop();
}
