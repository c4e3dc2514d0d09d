// Shared steps of the two quick-start commands. Plain Node: it runs before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a command in the repository, output to the terminal; exits on failure. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`\n${command} ${args.join(' ')} failed (exit code ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

/**
 * Runs commands side by side (each is one core's work, and a machine has two or more), each
 * one's output shown whole once it ends, in the order given; exits on the first failure.
 */
export async function runTogether(commands) {
  const done = commands.map(
    ([command, args]) =>
      new Promise((resolve) => {
        const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        const output = [];
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        child.on('close', (code, signal) => resolve({ command, args, output, code, signal }));
      }),
  );
  for (const finished of done) {
    const { command, args, output, code, signal } = await finished;
    process.stdout.write(Buffer.concat(output));
    if (code !== 0) {
      console.error(`\n${command} ${args.join(' ')} failed (exit code ${code ?? signal}).`);
      process.exit(code ?? 1);
    }
  }
}

/** Installs dependencies when they are missing or older than the lock file. */
export function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing dependencies…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/** Compiles the server and packages, and builds the web app. */
export function build() {
  console.log('Building…');
  run('npm', ['run', 'build']);
}
