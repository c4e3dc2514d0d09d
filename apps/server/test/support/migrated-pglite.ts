import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/database.js';
import { PGliteDialect } from '../../src/db/pglite-dialect.js';
import type { Database } from '../../src/db/schema.js';
import { seed } from '../../src/db/seed.js';

// A new PGlite runs initdb: about 3.5 s of every test file's start on a two-core machine.
// One loaded from a data folder already migrated and seeded opens in about 1.5 s. The folder
// is made once and kept in the temporary directory, under a name that changes with the
// database code's source and PGlite's version: a changed migration never meets a stale copy.

const DB_SOURCE = fileURLToPath(new URL('../../src/db', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(full) : [full];
    })
    .sort();
}

/** PGlite's version, from the package.json above its entry point (its exports hide it). */
function pgliteVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

function templateFile(): string {
  const hash = createHash('sha256').update(pgliteVersion());
  for (const file of filesUnder(DB_SOURCE))
    hash.update(path.relative(DB_SOURCE, file)).update(readFileSync(file));
  return path.join(tmpdir(), `parla-pglite-${hash.digest('hex').slice(0, 16)}.tar.gz`);
}

/** Migrates and seeds a new in-memory PGlite, and keeps its data folder in `file`. */
async function makeTemplate(file: string): Promise<Blob> {
  const pglite = await PGlite.create('memory://');
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  await migrateToLatest(db);
  await seed(db);
  const folder = await pglite.dumpDataDir('gzip');
  await db.destroy();
  // Written aside and renamed: test files starting at once never read half a copy. Where it
  // cannot be written (a full disk), this process keeps it alone.
  const partial = `${file}.${process.pid}`;
  try {
    await writeFile(partial, new Uint8Array(await folder.arrayBuffer()));
    await rename(partial, file);
  } catch {
    await rm(partial, { force: true });
  }
  return folder;
}

let template: Promise<Blob> | undefined;

/** A new in-memory PGlite database, already migrated and seeded (migrating and seeding it
 * again then finds nothing to do). */
export async function openMigratedPglite(): Promise<Db> {
  template ??= (async () => {
    const file = templateFile();
    try {
      return new Blob([new Uint8Array(await readFile(file))]);
    } catch {
      return makeTemplate(file);
    }
  })();
  const { db } = await openDatabase({ dataDir: 'memory://', startFrom: await template });
  return db;
}
