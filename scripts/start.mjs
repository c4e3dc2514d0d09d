// `npm start`: install what is missing, build, then serve (the server migrates and seeds on start).
import { spawn } from 'node:child_process';
import { build, ensureDependencies, root } from './lib.mjs';

ensureDependencies();
build();

const server = spawn(process.execPath, ['apps/server/dist/main.js'], { cwd: root, stdio: 'inherit' });
// Ctrl-C reaches both processes; the server closes gracefully and this one follows it.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
