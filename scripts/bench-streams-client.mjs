// The load side of `npm run bench:streams`: for each level, that many people stream real
// speech at once, each on their own socket, in real time, and every latency is collected.
// Prints one JSON line per level.
import { readFileSync } from 'node:fs';
import { io } from 'socket.io-client';
import { quantile, streamUtterance, utterancePcm } from './bench-speech.mjs';

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
  let missing = 0;
  await Promise.all(
    sockets.map(async (socket, index) => {
      // People do not start speaking in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2000));
      for (let n = 0; n < UTTERANCES_PER_STREAM; n += 1) {
        const latency = await Promise.race([
          streamUtterance(socket, utterances[(index + n) % utterances.length]),
          new Promise((resolve) => setTimeout(() => resolve(null), 15_000)),
        ]);
        if (latency === null) missing += 1;
        else latencies.push(latency);
      }
    }),
  );
  for (const socket of sockets) socket.disconnect();
  latencies.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      streams: level,
      results: latencies.length,
      missing,
      p50: quantile(latencies, 0.5) ?? NaN,
      p95: quantile(latencies, 0.95) ?? NaN,
      max: quantile(latencies, 1) ?? NaN,
    }),
  );
}
