import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The shared contract is consumed as TypeScript source ('source' export condition), so
// the web app never depends on a separately built copy of it.
export default defineConfig({
  plugins: [react()],
  resolve: {
    conditions: ['source', 'module', 'browser', 'development|production'],
    // The generic recogniser loads in a worker, where blob-polyfill cannot (src/lib/native-blob.ts).
    alias: { 'blob-polyfill': fileURLToPath(new URL('./src/lib/native-blob.ts', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 400,
    manifest: true,
    rolldownOptions: {
      // The contract's modules only declare schemas and constants: a module whose exports
      // are unused can go, so a screen that needs one constant does not carry every schema.
      treeshake: { moduleSideEffects: (id: string) => !id.includes('/packages/contract/src/') },
    },
  },
  server: {
    // The API and the socket server run on the same origin in production; forward them in development.
    proxy: {
      '^/(app|login|user|refreshAccessToken|forgotPassword|validateResetCode|resetPassword|authorizeForSecureContent|logsBatch|health|docs)(/|$|\\?)':
        {
          target: 'http://localhost:8080',
          // Page loads of client routes such as /login stay with the dev server.
          bypass: (req) =>
            req.method === 'GET' && req.headers.accept?.includes('text/html') ? '/index.html' : undefined,
        },
      '/socket.io': { target: 'http://localhost:8080', ws: true },
      // The generic recogniser's acoustic model, served by the server from its package.
      '/speech-model/': { target: 'http://localhost:8080' },
      // The speech encoder's model, for the third opinion, likewise.
      '/speech-encoder/': { target: 'http://localhost:8080' },
    },
  },
});
