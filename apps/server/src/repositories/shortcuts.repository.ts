import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { ShortcutPhraseRow } from '../db/schema.js';

/** A user's shortcut phrases: a short input that expands into a longer output. */
export class ShortcutsRepository {
  constructor(private readonly db: Db) {}

  list(userId: string): Promise<ShortcutPhraseRow[]> {
    return this.db
      .selectFrom('shortcut_phrases')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  find(userId: string, id: string) {
    return this.db
      .selectFrom('shortcut_phrases')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Another shortcut of the user with this input, compared case-insensitively. */
  findOtherWithInput(userId: string, input: string, exceptId?: string) {
    let query = this.db
      .selectFrom('shortcut_phrases')
      .select('id')
      .where('user_id', '=', userId)
      .where(sql<string>`lower(input)`, '=', input.toLowerCase());
    if (exceptId) query = query.where('id', '!=', exceptId);
    return query.executeTakeFirst();
  }

  insert(row: { id: string; user_id: string; input: string; output: string }) {
    return this.db
      .insertInto('shortcut_phrases')
      .values({ ...row, updated_at: new Date() })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(userId: string, id: string, changes: { input: string; output: string }) {
    return this.db
      .updateTable('shortcut_phrases')
      .set({ ...changes, updated_at: new Date() })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('shortcut_phrases')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
