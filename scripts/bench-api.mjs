// `npm run bench:api`: a short, bounded load run on loopback against the built server
// (embedded database in a temporary folder). Prints requests per second and latencies.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { hashPasswordForTransport } from '@parla/contract';
import { root } from './lib.mjs';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-bench-'));
const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_MINUTE: '100000' },
});
const url = `http://127.0.0.1:${port}`;

try {
  for (let attempt = 0; ; attempt += 1) {
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (attempt > 100) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const email = `bench-${Date.now()}@example.org`;
  const password = await hashPasswordForTransport('benchmark password 1');
  const signUp = await fetch(`${url}/user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email, password, name: 'Bench', birthdate: '1980-01-01', country: 'US',
      accepted_tos: true, accepted_privacy_policy: true,
    }),
  });
  const { access_token: token } = await signUp.json();

  const runs = [
    { title: 'POST /login', method: 'POST', path: '/login', body: JSON.stringify({ email, password }), headers: { 'content-type': 'application/json' } },
    { title: 'GET /app/user (authenticated)', method: 'GET', path: '/app/user', headers: { authorization: `Bearer ${token}` } },
  ];
  console.log(`Load on loopback: ${CONNECTIONS} connections, ${DURATION_SECONDS} s each, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database'}.`);
  for (const { title, ...request } of runs) {
    const result = await autocannon({ url: `${url}${request.path}`, connections: CONNECTIONS, duration: DURATION_SECONDS, ...request });
    const errors = result.non2xx + result.errors + result.timeouts;
    console.log(
      `${title.padEnd(32)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  (${result.requests.total} requests, ${errors} failed)`,
    );
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.on('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
