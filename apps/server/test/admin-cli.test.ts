import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/cli/admin.js';
import { openDatabase, type Db } from '../src/db/database.js';

/** An account as sign-up leaves it, straight into the database. */
async function insertUser(db: Db, id: string, email: string, extra: { is_test_user?: boolean } = {}) {
  await db
    .insertInto('users')
    .values({
      id,
      email,
      password_hash: 'x',
      name: 'Sam',
      app_language: 'en-US',
      secondary_name: null,
      secondary_email: null,
      secondary_phone: null,
      birthdate: '1970-01-01',
      country: 'US',
      region_code: null,
      parent_email: null,
      primary_contact_type: 'user',
      source_tracking: null,
      opt_out_audio_recognition: false,
      opt_out_audio_training: false,
      accepted_tos_at: null,
      accepted_privacy_policy_at: null,
      marketing_consent: null,
      commercial_use_of_pii_consent: null,
      support_person_consent: false,
      guardian_consent: null,
      cookies_consent_types: null,
      providers_enabled: '[]',
      settings: '{}',
      updated_at: new Date(),
      ...extra,
    })
    .execute();
}

// The command works on the deployment's own database; here an embedded one in a folder.
describe.runIf(process.env.TEST_DATABASE !== 'postgres')('admin command', () => {
  let dataDir = '';
  const previous = process.env.DATA_DIR;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'parla-admin-'));
    process.env.DATA_DIR = dataDir;
  });
  afterAll(async () => {
    process.env.DATA_DIR = previous;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('manages tech partners and locks a subscription', async () => {
    expect(await runAdminCommand([])).toContain('subscription:lock EMAIL');
    await runAdminCommand([
      'partner:add',
      '--id',
      'care-co',
      '--seller',
      'CareCo',
      '--name',
      'CareCo Speech',
    ]);
    expect(await runAdminCommand(['partner:list'])).toMatch(
      /parla-access\tParla\tParla Access\t\(default\)\ncare-co\tCareCo\tCareCo Speech/,
    );

    const { db } = await openDatabase({ dataDir });
    await insertUser(db, 'u1', 'sam@example.org');
    await db.destroy();

    expect(await runAdminCommand(['subscription:lock', 'SAM@example.org'])).toBe(
      'Subscription of SAM@example.org is now locked.',
    );
    expect(await runAdminCommand(['user:test-flag', 'sam@example.org', 'on'])).toBe(
      'sam@example.org is now a test user.',
    );
    await expect(runAdminCommand(['subscription:lock', 'nobody@example.org'])).rejects.toThrow(
      'User not found',
    );
    await expect(runAdminCommand(['dance'])).rejects.toThrow(/Unknown command dance/);

    expect(await runAdminCommand(['user:providers', 'sam@example.org', 'casr,dictation'])).toBe(
      'sam@example.org may now use: casr, dictation.',
    );
    await expect(runAdminCommand(['user:providers', 'sam@example.org', 'casr,telepathy'])).rejects.toThrow(
      /Unknown provider telepathy/,
    );
    const reopened = await openDatabase({ dataDir });
    const row = await reopened.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', 'u1')
      .executeTakeFirstOrThrow();
    const user = await reopened.db
      .selectFrom('users')
      .select(['is_test_user', 'providers_enabled'])
      .where('id', '=', 'u1')
      .executeTakeFirstOrThrow();
    await reopened.db.destroy();
    expect(row).toMatchObject({ is_locked: true, tech_partner_id: 'parla-access' });
    expect(user.is_test_user).toBe(true);
    expect(user.providers_enabled).toEqual(['casr', 'dictation']);
  }, 60_000); // ten cold starts of the embedded database: 11 s alone, 20 s in a full test run

  it('tells what became of recognised utterances, test accounts and older ones left out', async () => {
    const { db } = await openDatabase({ dataDir });
    await insertUser(db, 'ann', 'ann@example.org');
    await insertUser(db, 'bo', 'bo@example.org');
    await insertUser(db, 'tester', 'tester@example.org', { is_test_user: true });
    const kept = (userId: string, metadata: Record<string, unknown>, daysAgo = 1) =>
      db
        .insertInto('recordings')
        .values({
          id: randomUUID(),
          user_id: userId,
          phrase_id: null,
          kind: 'recognition',
          storage_key: 'users/x/recognitions/y.wav',
          duration_ms: 900,
          metadata: JSON.stringify(metadata),
          created_at: new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000),
        })
        .execute();
    const answered = { confirmed_take_id: 't' };
    await kept('ann', { text: 'Good morning', confirmed_text: 'good morning', ...answered });
    await kept('ann', { text: 'Good morning', confirmed_text: 'Good night', ...answered, local: true });
    await kept('ann', { text: 'Thank you', marked_unknown: true, ...answered });
    await kept('ann', { text: null, rejected: true, confirmed_text: 'Thank you', ...answered });
    await kept('bo', { text: 'Yes please' });
    await kept('bo', { text: null, rejected: true, local: true });
    await kept('bo', { text: 'Yes please', confirmed_text: 'Yes please', ...answered }, 45);
    await kept('tester', { text: 'Hello', confirmed_text: 'Hello', ...answered });
    await db.destroy();

    expect(await runAdminCommand(['recognition:outcomes'])).toBe(
      [
        'Recognition over the last 30 days (test accounts left out; people who keep no recognition audio are not counted):',
        '  utterances kept               6 (recognised on the device: 2), of 2 people',
        '  given an answer               4 (66.7 %)',
        '  answered by the person        4 (66.7 %), by 1 person',
        '    "That\'s right"              1',
        '    another of their phrases    1',
        '    named after none was shown  1',
        '    "Not one of my phrases"     1',
        '  answers judged right          1 of 3 (33.3 %)',
      ].join('\n'),
    );
    expect(await runAdminCommand(['recognition:outcomes', '--days', '60'])).toContain(
      'answers judged right          2 of 4 (50.0 %)',
    );
    await expect(runAdminCommand(['recognition:outcomes', '--days', 'many'])).rejects.toThrow(/--days/);
  }, 30_000);
});
