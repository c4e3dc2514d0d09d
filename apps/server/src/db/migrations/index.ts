import type { Migration, MigrationProvider } from 'kysely';
import * as accounts from './0001-accounts.js';

/** The one migration set of both deployments, in order. Never edit a migration that has shipped. */
const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
