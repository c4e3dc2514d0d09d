import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';

/**
 * Returns the named secret, creating it on first use. Every server process of a
 * deployment shares the database, so they agree on it without extra configuration.
 */
export async function sharedSecret(db: Db, name: string): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
