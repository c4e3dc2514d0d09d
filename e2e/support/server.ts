import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { hashPasswordForTransport, type SessionResponse, type SignUpRequest } from '@parla/contract';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config/env.js';
import { migrateToLatest } from '../../apps/server/src/db/database.js';
import { seed } from '../../apps/server/src/db/seed.js';
import type { Email, Mailer } from '../../apps/server/src/mail/mailer.js';
import { openMigratedPglite } from '../../apps/server/test/support/migrated-pglite.js';

// E2E_WEB_DIST_DIR lets a developer test a build made elsewhere without touching apps/web/dist.
const WEB_DIST_DIR = process.env.E2E_WEB_DIST_DIR ?? new URL('../../apps/web/dist', import.meta.url).pathname;

/** Keeps the emails the server sends (reset codes) for the test to read. */
class CapturingMailer implements Mailer {
  readonly sent: Email[] = [];
  send(email: Email) {
    this.sent.push(email);
    return Promise.resolve();
  }
  close() {
    // Nothing to close.
  }
}

export interface TestUser {
  email: string;
  password: string;
  session: SessionResponse;
}

let counter = 0;

/**
 * The real server, in this process, over an in-memory database, serving the built web
 * app on a free loopback port.
 */
export async function startServer(env: Record<string, string> = {}) {
  const db = await openMigratedPglite();
  await migrateToLatest(db);
  await seed(db);
  const config = loadConfig({
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    DATA_DIR: `/tmp/parla-e2e-${process.pid}-${Date.now()}`,
    WEB_DIST_DIR,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const mailer = new CapturingMailer();
  const { app, services } = await buildApp({ config, db, mailer, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  /** Signs a user up through the API (an adult in New York unless overridden). */
  async function signUp(
    overrides: Partial<SignUpRequest> = {},
    password = 'speak clearly 42',
  ): Promise<TestUser> {
    counter += 1;
    const email = `person${counter}-${Date.now()}@example.org`;
    const body: SignUpRequest = {
      email,
      password: await hashPasswordForTransport(password),
      name: 'Alex Rivera',
      birthdate: '1980-04-12',
      country: 'US',
      region_code: 'NY',
      accepted_tos: true,
      accepted_privacy_policy: true,
      marketing_consent: false,
      cookies_consent_types: ['essential'],
      app_id: 'casr_web_app',
      ...overrides,
    };
    const response = await fetch(`${url}/user`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201)
      throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
    return { email: body.email, password, session: (await response.json()) as SessionResponse };
  }

  return {
    url,
    db,
    /** Where the server keeps its files (blobs under `blobs/`). */
    dataDir: config.dataDir,
    services,
    mailer,
    signUp,
    async close() {
      await app.close();
      await db.destroy();
      // Its takes, profiles and outbox: a run leaves nothing behind.
      await rm(config.dataDir, { recursive: true, force: true });
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startServer>>;
