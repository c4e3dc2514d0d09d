import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { NewUser, UserRow, UserUpdate } from '../db/schema.js';

/** Users and their tasks. */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  }

  async insert(user: NewUser) {
    await this.db.insertInto('users').values(user).execute();
  }

  async update(id: string, changes: UserUpdate): Promise<UserRow> {
    return this.db
      .updateTable('users')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Deletes the user; every row that belongs to them goes with it (foreign keys cascade). */
  async delete(id: string) {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }

  async tasksOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('user_tasks')
      .select('task')
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => row.task);
  }

  async addTask(userId: string, task: string) {
    await this.db
      .insertInto('user_tasks')
      .values({ user_id: userId, task })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** Removes a pending task; false when the user had no such task. */
  async completeTask(userId: string, task: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('user_tasks')
      .where('user_id', '=', userId)
      .where('task', '=', task)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async recordAuthEvent(userId: string, event: string) {
    await this.db.insertInto('auth_events').values({ user_id: userId, event }).execute();
  }
}
