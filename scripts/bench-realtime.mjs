// `npm run bench:realtime`: latency of live recognition on loopback, from the last audio
// chunk sent to the `recognition` event, with a 200-phrase x 3-take profile of real speech;
// and from the release of a press to `stream_ended`, after speech and after a press in which
// nothing was said (the page's "Nothing was heard"); then the same while another person's
// profile of that size retrains on the same server. Audio is paced in real time, 3200
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

/** A socket of `user`'s, connected and with their profile loaded. */
async function readySocket(url, user) {
  const socket = io(url, {
    path: '/socket.io',
    auth: { token: user.token, user_id: user.userId },
    transports: ['websocket'],
  });
  await new Promise((resolve) => socket.once('connection_ready', resolve));
  socket.emit('select_provider', { provider_id: 'casr' });
  await new Promise((resolve) => socket.once('model_ready', resolve));
  return socket;
}

const server = await startBenchServer();
try {
  const user = await signUpBenchUser(server.url);
  const profile = await trainBenchProfile(server.url, user.token);
  const socket = await readySocket(server.url, user);

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

  // The same while another person's 200-phrase profile retrains on this server: its worker
  // thread, and the job around it, share the two cores with the streams. Quiet presses go
  // through a socket of their own that never hears speech: after speech a stream starts from
  // the floor it last heard, over which this room's noise is a sound (docs/decisions/0093).
  const quietSocket = await readySocket(server.url, user);
  const other = await signUpBenchUser(server.url);
  const otherProfile = await trainBenchProfile(server.url, other.token);
  const busy = { results: [], ends: [], nothing: [], retrains: [] };
  for (let round = 0; busy.results.length < UTTERANCES || busy.nothing.length < UTTERANCES; round += 1) {
    const uploaded = performance.now();
    const { trained } = await otherProfile.retrain();
    let over = false;
    void trained.then(() => (over = true));
    // The retrain starts once the takes have settled (1.5 s) and the queue next looks (1 s).
    await new Promise((resolve) => setTimeout(resolve, 2500));
    // Rounds take turns: an utterance, or quiet presses. Only what ran wholly before the new
    // model was out counts.
    while (!over) {
      if (round % 2 === 0 && busy.results.length < UTTERANCES) {
        const { result, ended } = await streamUtterance(socket, utterancePcm(busy.results.length));
        if (over) break;
        busy.results.push(result);
        busy.ends.push(ended);
      } else if (round % 2 === 1 && busy.nothing.length < UTTERANCES) {
        const { ms, outcome } = await streamNothing(quietSocket);
        if (over) break;
        if (outcome !== 'nothing_heard') throw new Error(`a press of a quiet room ended ${outcome}`);
        busy.nothing.push(ms);
      } else break;
    }
    busy.retrains.push((await trained) - uploaded);
  }
  quietSocket.disconnect();
  socket.disconnect();
  console.log(
    `While another profile of ${otherProfile.takes} takes retrained (${busy.retrains.length} retrains, upload to new model ${figures(busy.retrains)}):`,
  );
  console.log(`  last chunk to recognition: ${figures(busy.results)}`);
  console.log(`  release to stream_ended after a recognition: ${figures(busy.ends)}`);
  console.log(
    `  release to stream_ended, nothing heard (${busy.nothing.length} presses): ${figures(busy.nothing)}`,
  );
} finally {
  await server.stop();
}
