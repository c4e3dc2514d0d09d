import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations/index.js';
import { PGliteDialect } from './pglite-dialect.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  /** A PostgreSQL server; without it the embedded PGlite is used. */
  url?: string | undefined;
  /** Where PGlite keeps its files; `memory://` for a throwaway database. */
  dataDir: string;
  /** Schema to work in on PostgreSQL (tests use one per file). */
  schema?: string;
  /** A PGlite data folder to start from (as `dumpDataDir` gives it) instead of a new, empty
   * one: tests start from one already migrated, which opens in a third of the time. */
  startFrom?: Blob;
}

/** Opens the database: PostgreSQL when a URL is given, else PGlite under the data folder. */
export async function openDatabase(
  options: DatabaseOptions,
): Promise<{ db: Db; engine: 'postgres' | 'pglite' }> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), engine: 'postgres' };
  }
  let location = options.dataDir;
  if (!location.startsWith('memory://')) {
    location = path.join(options.dataDir, 'db');
    await mkdir(location, { recursive: true });
  }
  const pglite = await PGlite.create({
    dataDir: location,
    ...(options.startFrom ? { loadDataDir: options.startFrom } : {}),
  });
  return { db: new Kysely<Database>({ dialect: new PGliteDialect(pglite) }), engine: 'pglite' };
}

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Db) {
  // The bookkeeping tables live in the schema we work in; left unnamed, the migrator would
  // take a same-named table of any other schema on the server for ours.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    migrationTableSchema: rows[0]?.schema ?? 'public',
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : JSON.stringify(error);
    // Before any migration runs, the migrator checks its own bookkeeping tables; a failure
    // there names no migration.
    const what = failed ? `Migration ${failed.migrationName}` : 'Migrating';
    throw new Error(`${what} failed: ${reason}`, { cause: error });
  }
  return results?.filter((result) => result.status === 'Success').map((result) => result.migrationName) ?? [];
}
