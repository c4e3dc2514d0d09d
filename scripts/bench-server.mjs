// Shared by the server benchmarks: start the built server on a free loopback port with a
// throwaway embedded database, and sign a user up.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPasswordForTransport } from '@parla/contract';
import { root } from './lib.mjs';

export async function startBenchServer(env = {}) {
  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-bench-'));
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (attempt > 100) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function signUpBenchUser(url) {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.org`;
  const password = await hashPasswordForTransport('benchmark password 1');
  const response = await fetch(`${url}/user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email,
      password,
      name: 'Bench',
      birthdate: '1980-01-01',
      country: 'US',
      accepted_tos: true,
      accepted_privacy_policy: true,
    }),
  });
  const body = await response.json();
  return {
    email,
    password,
    token: body.access_token,
    refreshToken: body.refresh_token,
    userId: body.user.id,
  };
}
