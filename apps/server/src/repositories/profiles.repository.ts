import type { Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ProfileRow, ProfilesTable } from '../db/schema.js';

export class ProfilesRepository {
  constructor(private readonly db: Db) {}

  find(userId: string): Promise<ProfileRow | undefined> {
    return this.db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /** Creates the profile or changes the given columns of it. */
  upsert(row: Insertable<ProfilesTable>): Promise<ProfileRow> {
    const { user_id: _userId, created_at: _createdAt, ...changes } = row;
    return this.db
      .insertInto('profiles')
      .values(row)
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...changes, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
