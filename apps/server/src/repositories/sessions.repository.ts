import type { Db } from '../db/database.js';
import type { Selectable } from 'kysely';
import type { PasswordResetsTable, RefreshTokensTable } from '../db/schema.js';

export type RefreshTokenRow = Selectable<RefreshTokensTable>;
export type PasswordResetRow = Selectable<PasswordResetsTable>;

/** Refresh-token families and password-reset codes. */
export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async insertRefreshToken(row: {
    id: string;
    user_id: string;
    family_id: string;
    token_hash: string;
    expires_at: Date;
  }) {
    await this.db.insertInto('refresh_tokens').values(row).execute();
  }

  findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | undefined> {
    return this.db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** Marks a token spent; false when another request spent it first. */
  async spendRefreshToken(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('refresh_tokens')
      .set({ used_at: new Date() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async revokeFamily(familyId: string) {
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: new Date() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async revokeAllOf(userId: string) {
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async isFamilyActive(familyId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('refresh_tokens')
      .select('id')
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Replaces any open reset of the user with a new one. */
  async startPasswordReset(row: { id: string; user_id: string; code_hash: string; expires_at: Date }) {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('password_resets').where('user_id', '=', row.user_id).execute();
      await trx.insertInto('password_resets').values(row).execute();
    });
  }

  findOpenReset(userId: string): Promise<PasswordResetRow | undefined> {
    return this.db
      .selectFrom('password_resets')
      .selectAll()
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
  }

  async countResetAttempt(id: string) {
    await this.db
      .updateTable('password_resets')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async setUpdateToken(id: string, updateTokenHash: string) {
    await this.db
      .updateTable('password_resets')
      .set({ update_token_hash: updateTokenHash })
      .where('id', '=', id)
      .execute();
  }

  findResetByUpdateToken(updateTokenHash: string): Promise<PasswordResetRow | undefined> {
    return this.db
      .selectFrom('password_resets')
      .selectAll()
      .where('update_token_hash', '=', updateTokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
  }

  /** Spends the reset; false when it was already spent. */
  async finishReset(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('password_resets')
      .set({ used_at: new Date() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
