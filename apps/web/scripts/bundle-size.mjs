// Prints the JavaScript a first visit to a route downloads (gzip), from the build manifest:
// the entry with its static imports, plus the route's lazy module with its own.
//   node apps/web/scripts/bundle-size.mjs [route-module ...]
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const routes = process.argv.slice(2);
const modules = routes.length > 0 ? routes : ['src/app/routes/auth/login.tsx'];

function collect(key, seen) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return;
  seen.add(key);
  for (const imported of chunk.imports ?? []) collect(imported, seen);
}

const seen = new Set();
collect('index.html', seen);
for (const module of modules) collect(module, seen);
let raw = 0;
let gzip = 0;
const rows = [];
for (const key of seen) {
  const file = manifest[key].file;
  if (!file.endsWith('.js')) continue;
  const content = readFileSync(path.join(dist, file));
  const zipped = gzipSync(content, { level: 9 }).length;
  raw += content.length;
  gzip += zipped;
  rows.push([file, (zipped / 1024).toFixed(1)]);
}
rows.sort((a, b) => Number(b[1]) - Number(a[1]));
for (const [file, size] of rows) console.log(`${size.padStart(7)} KB  ${file}`);
console.log(
  `JavaScript for ${modules.join(', ')}: ${(gzip / 1024).toFixed(1)} KB gzip (${(raw / 1024).toFixed(1)} KB raw)`,
);
