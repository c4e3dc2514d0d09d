import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner, four projects: unit tests beside the code, the server's integration suite
// once per database engine, and the browser tests in real Chromium.
const resolve = { conditions: ['source'] };

export default defineConfig({
  test: {
    // Every core: Vitest 4 leaves one idle by default, half of a two-core machine. The
    // suites run in about two thirds of the time with both (their databases are a schema or
    // an in-memory database per file, their servers on ports of their own).
    maxWorkers: availableParallelism(),
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
          ],
          environment: 'node',
          // Some train and decode real takes: 3 s on a quiet two-core machine, past the
          // default 5 s on a busy one.
          testTimeout: 30_000,
        },
      },
      {
        resolve,
        test: {
          name: 'integration-pglite',
          include: ['apps/server/test/**/*.test.ts'],
          env: { TEST_DATABASE: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        resolve,
        test: {
          name: 'integration-postgres',
          include: ['apps/server/test/**/*.test.ts'],
          env: { TEST_DATABASE: 'postgres' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        resolve,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A poll waits on what the page or the server does next (an upload kept, a
          // background job's take): its default second is often too short on a loaded machine.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
