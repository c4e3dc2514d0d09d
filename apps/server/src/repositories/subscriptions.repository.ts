import type { Db } from '../db/database.js';
import type { TechPartnerRow } from '../db/schema.js';

/** Tech partners (the sellers of subscriptions) and each user's subscription. */
export class SubscriptionsRepository {
  constructor(private readonly db: Db) {}

  listPartners(): Promise<TechPartnerRow[]> {
    return this.db
      .selectFrom('tech_partners')
      .selectAll()
      .orderBy('is_default', 'desc')
      .orderBy('name')
      .execute();
  }

  defaultPartner(): Promise<TechPartnerRow | undefined> {
    return this.db.selectFrom('tech_partners').selectAll().where('is_default', '=', true).executeTakeFirst();
  }

  async upsertPartner(partner: TechPartnerRow) {
    await this.db.transaction().execute(async (trx) => {
      if (partner.is_default) await trx.updateTable('tech_partners').set({ is_default: false }).execute();
      await trx
        .insertInto('tech_partners')
        .values(partner)
        .onConflict((oc) => oc.column('id').doUpdateSet(partner))
        .execute();
    });
  }

  findOf(userId: string) {
    return this.db
      .selectFrom('subscriptions')
      .innerJoin('tech_partners', 'tech_partners.id', 'subscriptions.tech_partner_id')
      .select([
        'subscriptions.plan',
        'subscriptions.is_locked',
        'subscriptions.tech_partner_id',
        'tech_partners.seller',
      ])
      .where('subscriptions.user_id', '=', userId)
      .executeTakeFirst();
  }

  async create(userId: string, techPartnerId: string, plan: string) {
    await this.db
      .insertInto('subscriptions')
      .values({
        user_id: userId,
        tech_partner_id: techPartnerId,
        plan,
        is_locked: false,
        updated_at: new Date(),
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  }

  /** Locks or unlocks; false when the user has no subscription. */
  async setLocked(userId: string, isLocked: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('subscriptions')
      .set({ is_locked: isLocked, updated_at: new Date() })
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
