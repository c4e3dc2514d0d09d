import { sql, type Kysely } from 'kysely';

/**
 * The key a client sends with an upload, so that a retry whose first try reached the
 * server (its answer lost on the way) finds that recording instead of keeping a second.
 * Unique per user; rows without a key never clash (nulls are distinct).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table recordings add column upload_key text;
    create unique index recordings_upload_key on recordings (user_id, upload_key);
  `.execute(db);
}
