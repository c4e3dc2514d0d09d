import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { hashPasswordForTransport, type SessionResponse, type SignUpRequest } from '@parla/contract';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/env.js';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/database.js';
import { seed } from '../../src/db/seed.js';
import type { Email, Mailer } from '../../src/mail/mailer.js';
import { openMigratedPglite } from './migrated-pglite.js';

/** The PostgreSQL server of the scaled deployment's tests. */
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Keeps the emails the server sends, for tests to read. */
export class CapturingMailer implements Mailer {
  readonly sent: Email[] = [];
  send(email: Email) {
    this.sent.push(email);
    return Promise.resolve();
  }
  close() {
    // Nothing to close.
  }
  lastTo(address: string) {
    return this.sent.filter((email) => email.to === address).at(-1);
  }
}

export interface TestServer {
  url: string;
  db: Db;
  config: Config;
  mailer: CapturingMailer;
  api: ApiClient;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the real server on a free loopback port over a fresh database: PGlite in
 * memory, or a schema of its own on the PostgreSQL server (TEST_DATABASE=postgres).
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { configuredMailer?: boolean; logStream?: NodeJS.WritableStream } = {},
) {
  const engine = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
  const schema = `test_${randomUUID().replaceAll('-', '')}`;
  if (engine === 'postgres') await withAdminClient((client) => client.query(`create schema ${schema}`));
  const db =
    engine === 'postgres'
      ? (await openDatabase({ url: POSTGRES_URL, dataDir: '', schema })).db
      : await openMigratedPglite();
  await (engine === 'postgres' ? whileSchemasStayPut(() => migrateToLatest(db)) : migrateToLatest(db));
  await seed(db);
  const config = loadConfig({
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    DATA_DIR: `/tmp/parla-test-${schema}`,
    WEB_DIST_DIR: '/nonexistent',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const mailer = new CapturingMailer();
  const build = () =>
    buildApp({
      config,
      db,
      ...(options.configuredMailer ? {} : { mailer }),
      logger: options.logStream ? { stream: options.logStream } : false,
    });
  let { app } = await build();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    db,
    config,
    mailer,
    api: new ApiClient(url),
    /** Stops the server and starts a new one on the same port and database. */
    async restart() {
      await app.close();
      ({ app } = await build());
      await app.listen({ host: '127.0.0.1', port });
    },
    async close() {
      await app.close();
      await db.destroy();
      if (engine === 'postgres')
        await whileSchemasStayPut((client) => client.query(`drop schema ${schema} cascade`));
      await rm(config.dataDir, { recursive: true, force: true });
    },
  } satisfies TestServer;
}

/**
 * Runs a migration or a schema's drop while no other test file does either. The migrator
 * reads the tables of every schema on the server and then looks each up again by name; a
 * schema dropped by another file in between failed the start with "relation does not exist"
 * (42P01) or "schema does not exist". Ending the session that holds the lock releases it.
 */
function whileSchemasStayPut<T>(work: (client: pg.Client) => Promise<T>) {
  return withAdminClient(async (client) => {
    await client.query('select pg_advisory_lock($1)', [SCHEMA_CHANGE_LOCK]);
    return work(client);
  });
}

/** Any fixed key of this suite's own: PostgreSQL's advisory locks are named by numbers. */
const SCHEMA_CHANGE_LOCK = 0x7061726c61;

/** A session of its own on the PostgreSQL server, ended after `use`. */
async function withAdminClient<T>(use: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** A thin HTTP client over fetch: JSON in, JSON out, optional bearer token. */
export class ApiClient {
  constructor(readonly baseUrl: string) {}

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = Record<string, unknown>>(path: string, token?: string) {
    return this.request<T>('GET', path, token ? { token } : {});
  }

  post<T = Record<string, unknown>>(path: string, body: unknown, token?: string) {
    return this.request<T>('POST', path, { body, ...(token ? { token } : {}) });
  }
}

let counter = 0;

/** A valid adult sign-up, with a unique email; override any field. */
export function adultSignUp(
  overrides: Partial<SignUpRequest> = {},
): SignUpRequest & { clearPassword: string } {
  counter += 1;
  return {
    email: `person${counter}-${randomUUID().slice(0, 8)}@example.org`,
    password: '',
    clearPassword: 'speak clearly 42',
    name: 'Alex Rivera',
    birthdate: '1980-04-12',
    country: 'US',
    region_code: 'NY',
    accepted_tos: true,
    accepted_privacy_policy: true,
    marketing_consent: false,
    app_id: 'casr_web_app',
    ...overrides,
  };
}

/** Signs a user up through the API and returns the session. */
export async function signUp(api: ApiClient, overrides: Partial<SignUpRequest> = {}) {
  const { clearPassword, ...request } = adultSignUp(overrides);
  request.password = await hashPasswordForTransport(clearPassword);
  const response = await api.post<SessionResponse>('/user', request);
  if (response.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(response.body)}`);
  return { ...response.body, email: request.email, clearPassword, transportPassword: request.password };
}
