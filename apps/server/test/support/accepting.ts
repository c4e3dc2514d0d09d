import { get as httpGet, type IncomingHttpHeaders } from 'node:http';

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
