import type { SubscriptionInfo } from '@parla/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionsRepository } from '../src/repositories/subscriptions.repository.js';
import { UsersRepository } from '../src/repositories/users.repository.js';
import { SubscriptionService } from '../src/services/subscription.service.js';
import { signUp, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SUPPORT_EMAIL: 'help@parla.test' });
});
afterAll(() => server.close());

describe('subscription', () => {
  it('gives every new account the accessibility plan of the default partner', async () => {
    const user = await signUp(server.api);
    const info = await server.api.get<SubscriptionInfo>('/app/end_user/subscription_info', user.access_token);
    expect(info.body).toMatchObject({
      details: { seller: 'Parla', plan: 'accessibility', status: 'active' },
      is_locked: false,
      preferred_tech_partner: 'parla-access',
    });
    expect(info.body.tech_partners.map((partner) => partner.id)).toContain('parla-access');
    const partners = await server.api.get('/app/end_user/tech_partners', user.access_token);
    expect(partners.body).toMatchObject({ preferred_tech_partner: 'parla-access' });
  });

  it('can be locked and unlocked by an administrator, for that user only', async () => {
    const user = await signUp(server.api);
    const bystander = await signUp(server.api);
    const admin = new SubscriptionService(
      new SubscriptionsRepository(server.db),
      new UsersRepository(server.db),
    );
    await admin.upsertPartner({
      id: 'care-co',
      seller: 'CareCo',
      name: 'CareCo Speech',
      url: 'https://care.example',
      description: null,
      is_default: false,
    });
    await admin.setLockedByEmail(user.email, true);
    const locked = await server.api.get<SubscriptionInfo>(
      '/app/end_user/subscription_info',
      user.access_token,
    );
    expect(locked.body).toMatchObject({ is_locked: true, details: { status: 'locked' } });
    expect(locked.body.tech_partners.map((partner) => partner.id)).toEqual(['parla-access', 'care-co']);
    const other = await server.api.get<SubscriptionInfo>(
      '/app/end_user/subscription_info',
      bystander.access_token,
    );
    expect(other.body.is_locked).toBe(false);
    await admin.setLockedByEmail(user.email, false);
    expect(
      (await server.api.get<SubscriptionInfo>('/app/end_user/subscription_info', user.access_token)).body
        .is_locked,
    ).toBe(false);
    await expect(admin.setLockedByEmail('nobody@example.org', true)).rejects.toMatchObject({ status: 404 });
  });
});

describe('support', () => {
  it('stores the request and mails it to the support address with a reply-to', async () => {
    const user = await signUp(server.api);
    const response = await server.api.post(
      '/app/support',
      { type: 'problem', text: 'The microphone does not start.', metadata: { page: '/record' } },
      user.access_token,
    );
    expect(response.status).toBe(201);
    const id = response.body.id as string;
    const stored = await server.db
      .selectFrom('support_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ user_id: user.user.id, type: 'problem', metadata: { page: '/record' } });
    const mail = server.mailer.lastTo('help@parla.test');
    expect(mail).toMatchObject({
      replyTo: user.email,
      text: expect.stringContaining('The microphone does not start.') as unknown,
    });
  });

  it('refuses an empty text and an unknown type', async () => {
    const user = await signUp(server.api);
    const empty = await server.api.post('/app/support', { type: 'question', text: '   ' }, user.access_token);
    expect(empty.body).toMatchObject({ status: 400, message: 'text should not be empty' });
    const badType = await server.api.post('/app/support', { type: 'rant', text: 'x' }, user.access_token);
    expect(badType.body.message).toMatch(/^type: /);
  });
});

describe('POST /logsBatch', () => {
  const entry = {
    level: 'error',
    message: 'Something went wrong',
    status: 500,
    timestamp: new Date().toISOString(),
  };

  it('stores a batch from a signed-out client and ties a signed-in one to its user', async () => {
    const anonymous = await server.api.post('/logsBatch?app_name=web_app', {
      logs: [entry, { ...entry, level: 'warn' }],
    });
    expect(anonymous).toMatchObject({ status: 202, body: { accepted: 2 } });
    const user = await signUp(server.api);
    const signedIn = await server.api.post(
      '/logsBatch?app_name=web_app',
      { logs: [{ ...entry, context: { route: '/speak' } }] },
      user.access_token,
    );
    expect(signedIn.status).toBe(202);
    const rows = await server.db
      .selectFrom('client_logs')
      .selectAll()
      .where('user_id', '=', user.user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ app_name: 'web_app', level: 'error', context: { route: '/speak' } });
  });

  it('limits the size of a batch', async () => {
    const tooMany = await server.api.post('/logsBatch?app_name=web_app', {
      logs: Array.from({ length: 201 }, () => entry),
    });
    expect(tooMany.body).toMatchObject({ status: 400 });
    expect(tooMany.body.message).toMatch(/^logs: /);
    const huge = await server.api.post('/logsBatch?app_name=web_app', {
      logs: Array.from({ length: 150 }, () => ({ ...entry, context: { blob: 'x'.repeat(2000) } })),
    });
    expect(huge.body).toMatchObject({ status: 413, message: 'The request body is too large' });
    const noApp = await server.api.post('/logsBatch', { logs: [entry] });
    expect(noApp.body.message).toMatch(/app_name/);
  });
});
