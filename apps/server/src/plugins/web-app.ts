import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { SPEECH_ENCODER_PATH, SPEECH_MODEL_PATH } from '@parla/contract';
import type { FastifyInstance } from 'fastify';

// Paths that belong to the server; everything else is a route of the single-page app.
const SERVER_PREFIXES = [
  '/app/',
  '/api/',
  '/docs',
  '/socket.io',
  '/health',
  SPEECH_MODEL_PATH,
  SPEECH_ENCODER_PATH,
];

/** Serves the built web app from the same process, with index.html for client routes. */
export async function registerWebApp(app: FastifyInstance, distDir: string) {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'web app not built; serving the API only');
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    // The build writes brotli and gzip copies beside the files (scripts/precompress.mjs).
    preCompressed: true,
    // Hashed assets never change; the shell and the service worker must be revalidated.
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isServerPath = SERVER_PREFIXES.some((prefix) => url.startsWith(prefix));
    if (request.method === 'GET' && !isServerPath && !path.extname(url)) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.callNotFound();
  });
}
