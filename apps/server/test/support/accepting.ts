import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'vitest';

/**
 * A GET sent as a browser accepting `encodings` (none when empty) sends it, and the body as
 * it came: fetch would ask for and undo compression itself.
 */
export function getAccepting(url: string, encodings: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    httpGet(url, { headers: encodings === '' ? {} : { 'accept-encoding': encodings } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

/**
 * Asserts that `url` is sent as brotli to a browser that accepts it, as gzip to one that
 * accepts only that (Chromium over plain HTTP), and as it is to one that accepts neither:
 * `file`'s bytes each time. Returns the brotli response and the plain one.
 */
export async function expectSentCompressed(url: string, file: Buffer) {
  const brotli = await getAccepting(url, 'gzip, deflate, br, zstd');
  expect(brotli.headers['content-encoding']).toBe('br');
  expect(brotli.headers.vary).toMatch(/accept-encoding/i);
  expect(brotliDecompressSync(brotli.body).equals(file)).toBe(true);
  const gzip = await getAccepting(url, 'gzip, deflate');
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gzip.body).equals(file)).toBe(true);
  const plain = await getAccepting(url, '');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.equals(file)).toBe(true);
  return { brotli, plain };
}
