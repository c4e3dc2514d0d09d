// The load side of `npm run bench:streams`: for each level, that many people stream real
// speech at once, each on their own socket, in real time, and every latency is collected;
// each first makes one press of a quiet room, timed from its release to "nothing heard".
// Prints one JSON line per level.
import { readFileSync } from 'node:fs';
import { io } from 'socket.io-client';
import { quantile, streamNothing, streamUtterance, utterancePcm } from './bench-speech.mjs';

const UTTERANCES_PER_STREAM = Number(process.env.BENCH_UTTERANCES ?? 4);
const { url, people, levels, speaker } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
// The profile's own speaker when it has one (every person's voice known), else all in turn.
const utterances = Array.from({ length: 10 }, (_, i) => utterancePcm(i, speaker));

async function connect(person) {
  const socket = io(url, {
    path: '/socket.io',
    auth: { token: person.token, user_id: person.userId },
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
  });
  await new Promise((resolve, reject) => {
    socket.once('connection_ready', resolve);
    socket.once('connect_error', reject);
  });
  socket.emit('select_provider', { provider_id: 'casr' });
  await new Promise((resolve) => socket.once('model_ready', resolve));
  return socket;
}

for (const level of levels) {
  const sockets = await Promise.all(people.slice(0, level).map(connect));
  const latencies = [];
  const ends = [];
  const nothing = [];
  let missing = 0;
  await Promise.all(
    sockets.map(async (socket, index) => {
      // People do not start speaking in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2000));
      const quiet = await Promise.race([
        streamNothing(socket),
        new Promise((resolve) => setTimeout(() => resolve(null), 15_000)),
      ]);
      if (quiet?.outcome === 'nothing_heard') nothing.push(quiet.ms);
      else missing += 1;
      for (let n = 0; n < UTTERANCES_PER_STREAM; n += 1) {
        const heard = await Promise.race([
          streamUtterance(socket, utterances[(index + n) % utterances.length]),
          new Promise((resolve) => setTimeout(() => resolve(null), 15_000)),
        ]);
        if (heard === null) missing += 1;
        else {
          latencies.push(heard.result);
          ends.push(heard.ended);
        }
      }
    }),
  );
  for (const socket of sockets) socket.disconnect();
  for (const values of [latencies, ends, nothing]) values.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      streams: level,
      results: latencies.length,
      missing,
      p50: quantile(latencies, 0.5) ?? NaN,
      p95: quantile(latencies, 0.95) ?? NaN,
      max: quantile(latencies, 1) ?? NaN,
      endedP95: quantile(ends, 0.95) ?? NaN,
      nothingP95: quantile(nothing, 0.95) ?? NaN,
    }),
  );
}
