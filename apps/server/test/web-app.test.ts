import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSentCompressed, getAccepting } from './support/accepting.js';
import { startTestServer, type TestServer } from './support/test-server.js';

// The built web app as the server sends it: the build (`npm run build`) comes before the tests.
const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ WEB_DIST_DIR: DIST });
});
afterAll(() => server.close());

describe('the web app', () => {
  it('sends its code compressed to browsers that accept it, and as built to others', async () => {
    const script = readdirSync(path.join(DIST, 'assets')).find((file) => /^index-.*\.js$/.test(file));
    if (script === undefined) throw new Error('The web app is not built: run `npm run build`.');
    const built = readFileSync(path.join(DIST, 'assets', script));
    const url = `${server.url}/assets/${script}`;
    const { brotli } = await expectSentCompressed(url, built);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.body.length).toBeLessThan(built.length / 2);
  });

  it("answers the app's routes with its page, compressed too, and the server's own paths with theirs", async () => {
    const page = readFileSync(path.join(DIST, 'index.html'));
    const speak = await getAccepting(`${server.url}/speak`, 'gzip, deflate, br');
    expect(speak.status).toBe(200);
    expect(speak.headers['cache-control']).toBe('no-cache');
    expect(speak.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(speak.body).equals(page)).toBe(true);
    const unknown = await getAccepting(`${server.url}/app/no-such-endpoint`, 'gzip, deflate, br');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/application\/json/);
  });
});
