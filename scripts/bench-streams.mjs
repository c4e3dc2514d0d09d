// `npm run bench:streams`: how many live streams one server holds with the time from the
// last audio chunk to the `recognition` event under 100 ms at p95. The server runs in this
// process, the simulated browsers in a child process, so the two share the machine's cores
// the way a server and its load generator would. Every person has their own 200-phrase
// profile in memory (trained once over HTTP, then copied to the other people's accounts).
// With BENCH_VOICES=known, each has instead a profile of ten digits whose voice the generic
// path knows, so that it follows every stream too, with an engine of its own per person.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/dist/app.js';
import { loadConfig } from '../apps/server/dist/config/env.js';
import { migrateToLatest, openDatabase } from '../apps/server/dist/db/database.js';
import { seed } from '../apps/server/dist/db/seed.js';
import { root } from './lib.mjs';
import { signUpBenchUser } from './bench-server.mjs';
import { trainBenchProfile, trainKnownVoiceProfile } from './bench-speech.mjs';

const LEVELS = (process.env.BENCH_LEVELS ?? '1,10,25,50,75,100,150').split(',').map(Number);
const TARGET_P95_MS = 100;
const KNOWN_VOICES = process.env.BENCH_VOICES === 'known';

const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-bench-streams-'));
const { db } = await openDatabase({ dataDir });
await migrateToLatest(db);
await seed(db);
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
const { app } = await buildApp({ config, db, logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const url = `http://127.0.0.1:${app.server.address().port}`;

try {
  const people = [];
  for (let i = 0; i < Math.max(...LEVELS); i += 1) people.push(await signUpBenchUser(url));
  const profile = KNOWN_VOICES
    ? await trainKnownVoiceProfile(url, people[0].token)
    : await trainBenchProfile(url, people[0].token);
  // The trained model, copied to everyone else: one row each, each loaded on its own.
  const model = await db
    .selectFrom('models')
    .selectAll()
    .where('user_id', '=', people[0].userId)
    .executeTakeFirstOrThrow();
  for (const person of people.slice(1)) {
    await db
      .insertInto('models')
      .values({
        ...model,
        id: crypto.randomUUID(),
        user_id: person.userId,
        meta: JSON.stringify(model.meta),
        created_at: new Date(),
      })
      .execute();
  }
  console.log(
    `${people.length} people, each with a ${profile.phrases}-phrase profile of ${profile.takes} takes${KNOWN_VOICES ? `, a voice the generic path knows (${profile.voiceKnows})` : ''}`,
  );

  const plan = path.join(dataDir, 'plan.json');
  const speaker = KNOWN_VOICES ? profile.speaker : undefined;
  writeFileSync(plan, JSON.stringify({ url, people, levels: LEVELS, speaker }));
  const client = spawn(process.execPath, [path.join(root, 'scripts/bench-streams-client.mjs'), plan], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let best = 0;
  let output = '';
  client.stdout.on('data', (data) => {
    output += data;
    for (;;) {
      const end = output.indexOf('\n');
      if (end < 0) break;
      const line = output.slice(0, end);
      output = output.slice(end + 1);
      const level = JSON.parse(line);
      const held = level.p95 <= TARGET_P95_MS && level.missing === 0;
      if (held) best = Math.max(best, level.streams);
      console.log(
        `${String(level.streams).padStart(4)} streams: ${level.results} results, p50 ${level.p50.toFixed(1)} ms, p95 ${level.p95.toFixed(1)} ms, max ${level.max.toFixed(1)} ms; release to stream_ended p95 ${level.endedP95.toFixed(1)} ms, nothing heard p95 ${level.nothingP95.toFixed(1)} ms${level.missing ? `, ${level.missing} missing` : ''}${held ? '' : '  (over target)'}`,
      );
    }
  });
  await new Promise((resolve) => client.on('exit', resolve));
  console.log(`Concurrent live streams with p95 under ${TARGET_P95_MS} ms: ${best} (of the levels tried)`);
} finally {
  await app.close();
  await db.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}
