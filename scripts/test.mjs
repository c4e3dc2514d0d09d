// `npm test`: every check and test — types, lint, unit, integration on PGlite and PostgreSQL, browser.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build, ensureDependencies, root, run } from './lib.mjs';

ensureDependencies();
build();

console.log('\nType checking…');
run('npm', ['run', 'typecheck']);
console.log('\nLinting…');
run('npm', ['run', 'lint']);

if (!existsSync('/usr/bin/chromium')) {
  console.error("The browser tests need Debian's Chromium: apt-get update && apt-get install -y chromium");
  process.exit(1);
}

const reportDir = path.join(root, 'test-results');
mkdirSync(reportDir, { recursive: true });
const report = path.join(reportDir, 'vitest.json');
const result = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);

if (existsSync(report)) {
  const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(readFileSync(report, 'utf8'));
  console.log(`\nTests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests} skipped`);
}
process.exit(result.status ?? 1);
