import type { Migration, MigrationProvider } from 'kysely';
import * as accounts from './0001-accounts.js';
import * as voiceProfile from './0002-voice-profile.js';
import * as notes from './0003-notes.js';
import * as uploadKeys from './0004-upload-keys.js';

/** The one migration set of both deployments, in order. Never edit a migration that has shipped. */
const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-voice-profile': voiceProfile,
  '0003-notes': notes,
  '0004-upload-keys': uploadKeys,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
