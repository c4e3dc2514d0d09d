import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEECH_ENCODER_FILE, SPEECH_ENCODER_PATH, SPEECH_MODEL_PATH } from '@parla/contract';
import { soundSwallowerModelDir, speechEncoderModelFile } from '@parla/speech/node';
import { currentCopy, speechModelSource } from '../src/plugins/speech-model.js';
import { sharedSecret } from '../src/repositories/secrets.repository.js';
import { expectSentCompressed } from './support/accepting.js';
import { signUp, startTestServer, type TestServer } from './support/test-server.js';

const PRIVATE_ROUTES: [string, string][] = [
  ['POST', '/app/logAuthEvent'],
  ['POST', '/authorizeForSecureContent'],
  ['DELETE', '/app/end_user/delete_account'],
  ['GET', '/app/user'],
  ['GET', '/app/profile'],
  ['POST', '/app/profile'],
  ['GET', '/app/profile/status'],
  ['GET', '/app/getUserSettings'],
  ['POST', '/app/updateUserSettings'],
  ['GET', '/app/tasks'],
  ['POST', '/app/complete_task'],
  ['POST', '/app/update_consents'],
  ['GET', '/app/end_user/subscription_info'],
  ['GET', '/app/end_user/tech_partners'],
  ['POST', '/app/support'],
  ['GET', '/app/scenarios'],
  ['PUT', '/app/scenarios/activate/{id}'],
  ['GET', '/app/casr/scenarios_stats'],
  ['GET', '/app/casr/scenario_train_set/{id}/dataset'],
  ['GET', '/app/casr/scenario_train_set/{id}/custom'],
  ['GET', '/app/casr/phrases'],
  ['GET', '/app/casr/pronunciations'],
  ['POST', '/app/casr/datasetPhrase'],
  ['POST', '/app/casr/customPhrase'],
  ['GET', '/app/casr/phrase/{id}'],
  ['PUT', '/app/casr/editPhrase'],
  ['POST', '/app/casr/deletePhrase'],
  ['GET', '/app/casr/shortcut_phrases'],
  ['POST', '/app/casr/shortcut_phrases'],
  ['GET', '/app/casr/shortcut_phrases/{id}'],
  ['PUT', '/app/casr/shortcut_phrases/{id}'],
  ['DELETE', '/app/casr/shortcut_phrases/{id}'],
  ['POST', '/app/casr/upload/training/{id}'],
  ['GET', '/app/modelsInfo'],
  ['GET', '/app/end_user/model_links'],
  ['GET', '/app/end_user/models/{id}/{version}/profile.bin'],
  ['GET', '/app/end_user/models/{id}/{version}/voice.bin'],
  ['POST', '/app/recording/recognition'],
  ['POST', '/app/recording/recognition/{id}/confirm'],
  ['POST', '/app/recording/recognition/{id}/none_of_my_phrases'],
  ['POST', '/app/casr/import/training'],
  ['GET', '/app/dictation_notes'],
  ['POST', '/app/dictation_notes'],
  ['PATCH', '/app/dictation_notes/{id}'],
  ['DELETE', '/app/dictation_notes/{id}'],
  ['GET', '/api/v1/list_voices'],
  ['POST', '/api/v1/synthesize'],
  ['POST', '/api/v1/request_synthesis'],
  ['GET', '/api/v1/synthesize_request/{id}'],
];

/** Uploads are multipart: their fields are described in words, not as a JSON body. */
const MULTIPART_ROUTES = new Set([
  '/app/casr/upload/training/{id}',
  '/app/recording/recognition',
  '/app/casr/import/training',
]);

const PUBLIC_ROUTES: [string, string][] = [
  ['POST', '/user'],
  ['POST', '/login'],
  ['POST', '/refreshAccessToken'],
  ['POST', '/forgotPassword'],
  ['POST', '/validateResetCode'],
  ['POST', '/resetPassword'],
  ['POST', '/logsBatch'],
  ['GET', '/health'],
  ['GET', '/app/public/feature_flags'],
];

let server: TestServer;
const log = new PassThrough();
let logText = '';
log.on('data', (chunk: Buffer) => (logText += chunk.toString()));

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'info' }, { logStream: log });
});
afterAll(() => server.close());

describe('access control', () => {
  it('refuses every private route without a token, with a bad one, and with an expired one', async () => {
    const secret = await sharedSecret(server.db, 'jwt');
    const expired = await new SignJWT({ sid: 'x', kind: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('someone')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(secret));
    for (const [method, path] of PRIVATE_ROUTES) {
      const body = method === 'GET' ? {} : { body: {} };
      const url = path.replace('{id}', 'some-id').replace('{version}', 'v1');
      const missing = await server.api.request(method, url, body);
      expect(missing.body, `${method} ${path}`).toEqual({
        status: 401,
        message: 'Sign in to continue',
        code: 'UNAUTHORIZED',
      });
      const garbage = await server.api.request(method, url, { ...body, token: 'not-a-token' });
      expect(garbage.status, `${method} ${path}`).toBe(401);
      const old = await server.api.request(method, url, { ...body, token: expired });
      expect(old.body, `${method} ${path}`).toEqual({
        status: 401,
        message: 'Token expired',
        code: 'TOKEN_EXPIRED',
      });
    }
  });

  it('answers an unknown endpoint in the one error shape', async () => {
    const response = await server.api.get('/app/nothing-here');
    expect(response.body).toEqual({
      status: 404,
      message: 'No such endpoint: GET /app/nothing-here',
      code: 'NOT_FOUND',
    });
  });

  it('sets the security headers', async () => {
    const response = await server.api.get('/health');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('strict-transport-security')).toBeTruthy();
  });
});

describe('documentation and health', () => {
  it('describes every endpoint with its request and response schemas', async () => {
    const { status, body } = await server.api.get<{
      paths: Record<
        string,
        Record<
          string,
          { requestBody?: unknown; responses: Record<string, { content?: unknown }>; security?: unknown }
        >
      >;
      components: { schemas: Record<string, unknown> };
    }>('/docs/openapi.json');
    expect(status).toBe(200);
    for (const [method, path] of [...PRIVATE_ROUTES, ...PUBLIC_ROUTES]) {
      const operation = body.paths[path]?.[method.toLowerCase()];
      expect(operation, `${method} ${path}`).toBeDefined();
      const success = Object.entries(operation?.responses ?? {}).find(([code]) => code.startsWith('2'));
      expect(success?.[1].content, `${method} ${path} response schema`).toBeDefined();
      if (method === 'POST' && !MULTIPART_ROUTES.has(path))
        expect(operation?.requestBody, `${method} ${path} request schema`).toBeDefined();
      const isPrivate = PRIVATE_ROUTES.some(([m, p]) => m === method && p === path);
      expect(Boolean(operation?.security), `${method} ${path} security`).toBe(isPrivate);
    }
    expect(Object.keys(body.components.schemas)).toEqual(
      expect.arrayContaining(['User', 'ErrorResponse', 'SignUpRequest']),
    );
  });

  it('serves the viewer and the health check', async () => {
    const viewer = await fetch(`${server.url}/docs/`);
    expect(viewer.status).toBe(200);
    expect(await viewer.text()).toContain('swagger');
    const health = await server.api.get('/health');
    expect(health.body).toMatchObject({ status: 'ok', database: 'up' });
  });
});

describe("the generic recogniser's acoustic model", () => {
  it('is served to browsers without an account, to be kept a week, and nothing else under its path', async () => {
    const params = await fetch(`${server.url}${SPEECH_MODEL_PATH}en-us/feat_params.json`);
    expect(params.status).toBe(200);
    expect(params.headers.get('cache-control')).toBe('public, max-age=604800');
    expect(await params.json()).toMatchObject({ feat: '1s_c_d_dd' });
    const dictionary = await fetch(`${server.url}${SPEECH_MODEL_PATH}en-us/dict.txt`);
    expect((await dictionary.text()).length).toBeGreaterThan(1_000_000);
    // A file the engine asks for but the model lacks is a 404, not the app's page: the
    // engine then goes on without it.
    for (const missing of ['en-us/lda', 'en-us/../../package.json', 'fr-fr/mdef']) {
      expect((await fetch(`${server.url}${SPEECH_MODEL_PATH}${missing}`)).status).toBe(404);
    }
  });

  it("is sent compressed to browsers that accept it, from the build's copy of the installed model", async () => {
    const mdef = readFileSync(path.join(soundSwallowerModelDir(), 'en-us', 'mdef'));
    const url = `${server.url}${SPEECH_MODEL_PATH}en-us/mdef`;
    const { brotli, plain } = await expectSentCompressed(url, mdef);
    expect(brotli.body.length).toBeLessThan(mdef.length / 3);
    expect(plain.headers['cache-control']).toBe('public, max-age=604800');
  });

  it('is served from the package itself when the copy is not of the model installed now', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parla-model-'));
    const installed = path.join(dir, 'installed');
    const copy = path.join(dir, 'copy');
    mkdirSync(installed);
    mkdirSync(copy);
    writeFileSync(path.join(installed, 'mdef'), 'one model');
    // No stamp: a build cut short.
    expect(currentCopy(installed, copy)).toBeUndefined();
    writeFileSync(path.join(copy, '.source.json'), JSON.stringify(speechModelSource(installed)));
    expect(currentCopy(installed, copy)).toBe(copy);
    // The package reinstalled or upgraded since the build.
    writeFileSync(path.join(installed, 'mdef'), 'another model');
    expect(currentCopy(installed, copy)).toBeUndefined();
    rmSync(dir, { recursive: true });
  });
});

describe("the speech encoder's model", () => {
  it('is served, compressed, to browsers without an account, and nothing else of its package', async () => {
    const model = readFileSync(speechEncoderModelFile());
    const url = `${server.url}${SPEECH_ENCODER_PATH}${SPEECH_ENCODER_FILE}`;
    const { brotli, plain } = await expectSentCompressed(url, model);
    expect(brotli.body.length).toBeLessThan(model.length * 0.8);
    expect(plain.headers['cache-control']).toBe('public, max-age=604800');
    // Its decoder lies beside it in the package: the browser has no use for it.
    for (const other of ['decoder_model_merged.onnx', '../package.json', 'encoder_model.onnx.br'])
      expect((await fetch(`${server.url}${SPEECH_ENCODER_PATH}${other}`)).status).toBe(404);
  });
});

describe('logs', () => {
  it('keep out emails, passwords and tokens', async () => {
    const user = await signUp(server.api);
    await server.api.post('/login', { email: user.email, password: user.transportPassword });
    await server.api.get('/app/user', user.access_token);
    await server.api.post('/forgotPassword', { email: user.email });
    expect(logText).toContain('"statusCode":200');
    for (const secret of [user.email, user.transportPassword, user.access_token, user.refresh_token]) {
      expect(logText).not.toContain(secret);
    }
  });
});

describe('rate limiting', () => {
  it('slows down repeated account requests from one address', async () => {
    const limited = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1) {
        statuses.push((await limited.api.post('/forgotPassword', { email: 'someone@example.org' })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = await limited.api.post('/forgotPassword', { email: 'someone@example.org' });
      expect(refused.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(refused.body.message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    } finally {
      await limited.close();
    }
  });
});
