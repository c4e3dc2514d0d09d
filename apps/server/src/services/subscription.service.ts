import type { SubscriptionInfo, TechPartner } from '@parla/contract';
import type { TechPartnerRow } from '../db/schema.js';
import { notFound } from '../errors.js';
import type { SubscriptionsRepository } from '../repositories/subscriptions.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { DEFAULT_PLAN } from './auth.service.js';

/** Subscriptions come through tech partners; an administrator can lock one. */
export class SubscriptionService {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly users: UsersRepository,
  ) {}

  async info(userId: string): Promise<SubscriptionInfo> {
    let subscription = await this.subscriptions.findOf(userId);
    if (!subscription) {
      // Accounts made before any partner existed get the default plan on first look.
      const partner = await this.subscriptions.defaultPartner();
      if (partner) await this.subscriptions.create(userId, partner.id, DEFAULT_PLAN);
      subscription = await this.subscriptions.findOf(userId);
    }
    const partners = (await this.subscriptions.listPartners()).map(presentPartner);
    return {
      details: {
        seller: subscription?.seller ?? 'none',
        plan: subscription?.plan ?? 'none',
        status: subscription?.is_locked ? 'locked' : 'active',
      },
      is_locked: subscription?.is_locked ?? false,
      preferred_tech_partner: subscription?.tech_partner_id ?? null,
      tech_partners: partners,
    };
  }

  async partners(userId: string) {
    const info = await this.info(userId);
    return { tech_partners: info.tech_partners, preferred_tech_partner: info.preferred_tech_partner };
  }

  /** Administration: lock or unlock the subscription of the account with this email. */
  async setLockedByEmail(email: string, isLocked: boolean) {
    const user = await this.users.findByEmail(email);
    if (!user) throw notFound('User');
    await this.info(user.id);
    await this.subscriptions.setLocked(user.id, isLocked);
  }

  upsertPartner(partner: TechPartnerRow) {
    return this.subscriptions.upsertPartner(partner);
  }
}

function presentPartner(row: TechPartnerRow): TechPartner {
  return { id: row.id, seller: row.seller, name: row.name, url: row.url, description: row.description };
}
