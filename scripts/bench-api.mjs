// `npm run bench:api`: a short, bounded load run on loopback against the built server
// (embedded database in a temporary folder, or DATABASE_URL). Prints requests per second and latencies.
import autocannon from 'autocannon';
import { signUpBenchUser, startBenchServer } from './bench-server.mjs';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const server = await startBenchServer();
try {
  const { email, password, token } = await signUpBenchUser(server.url);
  const runs = [
    {
      title: 'POST /login',
      method: 'POST',
      path: '/login',
      body: JSON.stringify({ email, password }),
      headers: { 'content-type': 'application/json' },
    },
    {
      title: 'GET /app/user (authenticated)',
      method: 'GET',
      path: '/app/user',
      headers: { authorization: `Bearer ${token}` },
    },
  ];
  console.log(
    `Load on loopback: ${CONNECTIONS} connections, ${DURATION_SECONDS} s each, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database'}.`,
  );
  for (const { title, ...request } of runs) {
    const result = await autocannon({
      url: `${server.url}${request.path}`,
      connections: CONNECTIONS,
      duration: DURATION_SECONDS,
      ...request,
    });
    const errors = result.non2xx + result.errors + result.timeouts;
    console.log(
      `${title.padEnd(32)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  (${result.requests.total} requests, ${errors} failed)`,
    );
  }
} finally {
  await server.stop();
}
