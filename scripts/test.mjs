// `npm test`: every check and test — types, lint, unit, integration on PGlite and PostgreSQL, browser.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build, ensureDependencies, root, runTogether } from './lib.mjs';

ensureDependencies();
build();

console.log('\nType checking and linting…');
await runTogether([
  ['npm', ['run', 'typecheck']],
  ['npm', ['run', 'lint']],
]);

if (!existsSync('/usr/bin/chromium')) {
  console.error("The browser tests need Debian's Chromium: apt-get update && apt-get install -y chromium");
  process.exit(1);
}

const reportDir = path.join(root, 'test-results');
mkdirSync(reportDir, { recursive: true });

// The browser tests run on their own, after the rest: on two cores they slow down when a
// database suite runs beside them.
const runs = [
  { name: 'server-and-units', projects: ['unit', 'integration-pglite', 'integration-postgres'] },
  { name: 'browser', projects: ['e2e'] },
];
const totals = { passed: 0, failed: 0, skipped: 0 };
let status = 0;
for (const { name, projects } of runs) {
  const report = path.join(reportDir, `${name}.json`);
  rmSync(report, { force: true });
  console.log(`\nRunning ${projects.join(', ')}…`);
  const result = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      ...projects.flatMap((project) => ['--project', project]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...process.argv.slice(2),
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) status = result.status ?? 1;
  if (existsSync(report)) {
    const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += numPassedTests;
    totals.failed += numFailedTests;
    totals.skipped += numPendingTests;
  } else if (result.status !== 0) {
    totals.failed += 1;
  }
}

console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(status);
