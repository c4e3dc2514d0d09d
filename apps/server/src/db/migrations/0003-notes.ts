import { sql, type Kysely } from 'kysely';

/** Dictation notes. */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table dictation_notes (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      text text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index dictation_notes_user on dictation_notes (user_id, updated_at desc);
  `.execute(db);
}
