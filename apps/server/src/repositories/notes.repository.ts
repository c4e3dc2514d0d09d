import type { Db } from '../db/database.js';

/** A user's dictation notes, most recently changed first. */
export class NotesRepository {
  constructor(private readonly db: Db) {}

  async page(userId: string, page: number, perPage: number) {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('dictation_notes')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      this.db
        .selectFrom('dictation_notes')
        .select((eb) => eb.fn.countAll<string | number | bigint>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.count) };
  }

  insert(row: { id: string; user_id: string; text: string }) {
    return this.db
      .insertInto('dictation_notes')
      .values({ ...row, updated_at: new Date() })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(userId: string, id: string, text: string) {
    return this.db
      .updateTable('dictation_notes')
      .set({ text, updated_at: new Date() })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(userId: string, id: string) {
    const result = await this.db
      .deleteFrom('dictation_notes')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
