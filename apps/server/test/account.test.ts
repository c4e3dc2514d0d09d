import type { Profile, UserSettings } from '@parla/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('profile', () => {
  it('starts from the sign-up and is complete for the mandatory fields', async () => {
    const user = await signUp(server.api, { app_language: 'en-GB', country: 'GB', region_code: undefined });
    const profile = await server.api.get<Profile>('/app/profile', user.access_token);
    expect(profile.body).toEqual({
      name: 'Alex Rivera',
      gender: null,
      country: 'GB',
      diagnosis: null,
      speechLevel: null,
      nativeLanguage: 'en-GB',
      phone: null,
      region_code: null,
      role: 'end_user',
      referral_source: null,
    });
    const status = await server.api.get('/app/profile/status', user.access_token);
    expect(status.body).toEqual({ is_created: true, is_mandatory_filled: true });
  });

  it('changes only the fields sent, and keeps the account name in step', async () => {
    const user = await signUp(server.api);
    const updated = await server.api.post<Profile>(
      '/app/profile',
      { diagnosis: 'als', speechLevel: 'moderate', phone: '+1 555 010 2030', name: 'Alex R.' },
      user.access_token,
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      diagnosis: 'als',
      speechLevel: 'moderate',
      country: 'US',
      name: 'Alex R.',
    });
    const me = await server.api.get('/app/user', user.access_token);
    expect(me.body.name).toBe('Alex R.');

    const cleared = await server.api.post<Profile>(
      '/app/profile',
      { nativeLanguage: null },
      user.access_token,
    );
    expect(cleared.body.nativeLanguage).toBeNull();
    const status = await server.api.get('/app/profile/status', user.access_token);
    expect(status.body).toEqual({ is_created: true, is_mandatory_filled: false });
  });

  it("answers 'name is required' when a new profile comes without a name", async () => {
    const user = await signUp(server.api);
    await server.db.deleteFrom('profiles').where('user_id', '=', user.user.id).execute();
    expect(await server.api.get('/app/profile/status', user.access_token)).toMatchObject({
      body: { is_created: false, is_mandatory_filled: false },
    });
    expect((await server.api.get('/app/profile', user.access_token)).body).toMatchObject({ status: 404 });
    const withoutName = await server.api.post('/app/profile', { country: 'US' }, user.access_token);
    expect(withoutName.body).toEqual({ status: 400, message: 'name is required', code: 'NAME_REQUIRED' });
    const withName = await server.api.post(
      '/app/profile',
      { country: 'US', name: 'Alex' },
      user.access_token,
    );
    expect(withName.status).toBe(200);
  });

  it('refuses unknown fields, bad values and an empty update', async () => {
    const user = await signUp(server.api);
    const cases: [unknown, string][] = [
      [{ speechLevel: 'loud' }, 'speechLevel: '],
      [{ favourite_colour: 'blue' }, 'Unknown field: favourite_colour'],
      [{}, 'Send at least one profile field'],
      [{ phone: 'call me' }, 'phone must be a phone number'],
    ];
    for (const [body, message] of cases) {
      const response = await server.api.post('/app/profile', body, user.access_token);
      expect(response.status).toBe(400);
      expect(response.body.message).toContain(message);
    }
  });
});

describe('settings', () => {
  it('has defaults, and changes the keys sent', async () => {
    const user = await signUp(server.api);
    const defaults = await server.api.get<UserSettings>('/app/getUserSettings', user.access_token);
    expect(defaults.body).toEqual({
      dictation_scenario: null,
      use_streaming_model: true,
      filter_profanities: false,
      chat_gpt_enabled: false,
      discrete_enabled: true,
      min_silence_length_seconds: 0.3,
    });
    const changed = await server.api.post<UserSettings>(
      '/app/updateUserSettings',
      { filter_profanities: true, min_silence_length_seconds: 0.8 },
      user.access_token,
    );
    expect(changed.body).toMatchObject({
      filter_profanities: true,
      min_silence_length_seconds: 0.8,
      discrete_enabled: true,
    });
    expect((await server.api.get('/app/getUserSettings', user.access_token)).body).toEqual(changed.body);
  });

  it('validates each key and changes nothing on bad input', async () => {
    const user = await signUp(server.api);
    const cases: [unknown, string][] = [
      [{ filter_profanities: 'yes' }, 'filter_profanities: '],
      [{ min_silence_length_seconds: 30 }, 'min_silence_length_seconds must be at most 5'],
      [{ dark_mode: true }, 'Unknown field: dark_mode'],
      [
        { filter_profanities: true, min_silence_length_seconds: 0 },
        'min_silence_length_seconds must be at least 0.1',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await server.api.post('/app/updateUserSettings', body, user.access_token);
      expect(response.status).toBe(400);
      expect(response.body.message).toContain(message);
    }
    expect(
      (await server.api.get<UserSettings>('/app/getUserSettings', user.access_token)).body.filter_profanities,
    ).toBe(false);
  });
});

describe('tasks', () => {
  it('lists pending tasks and completes them once', async () => {
    const user = await signUp(server.api);
    await server.db
      .insertInto('user_tasks')
      .values({ user_id: user.user.id, task: 'notify_casr_recognition_unlocked' })
      .execute();
    expect((await server.api.get('/app/tasks', user.access_token)).body).toEqual({
      tasks: ['notify_casr_recognition_unlocked'],
    });
    const done = await server.api.post(
      '/app/complete_task',
      { task: 'notify_casr_recognition_unlocked' },
      user.access_token,
    );
    expect(done.body).toEqual({ tasks: [] });
    const again = await server.api.post(
      '/app/complete_task',
      { task: 'notify_casr_recognition_unlocked' },
      user.access_token,
    );
    expect(again.body).toEqual({ status: 404, message: 'Task not found', code: 'NOT_FOUND' });
  });

  it("cannot complete another user's task", async () => {
    const owner = await signUp(server.api);
    const other = await signUp(server.api);
    await server.db
      .insertInto('user_tasks')
      .values({ user_id: owner.user.id, task: 'notify_casr_recognition_unlocked' })
      .execute();
    const response = await server.api.post(
      '/app/complete_task',
      { task: 'notify_casr_recognition_unlocked' },
      other.access_token,
    );
    expect(response.status).toBe(404);
    expect((await server.api.get('/app/tasks', owner.access_token)).body).toEqual({
      tasks: ['notify_casr_recognition_unlocked'],
    });
  });
});

describe('consents', () => {
  it('records the cookie choice, essential always on', async () => {
    const user = await signUp(server.api);
    expect(user.user.cookies_consent_types).toBeNull();
    const response = await server.api.post(
      '/app/update_consents',
      { cookies_consent_types: [] },
      user.access_token,
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      consents: { cookies_consent_types: ['essential'] },
      user: { id: user.user.id, cookies_consent_types: ['essential'] },
    });
  });

  it('records re-acceptance of the terms with the marketing choice', async () => {
    const user = await signUp(server.api, { marketing_consent: undefined });
    expect(user.user.marketing_consent).toBeNull();
    await server.db
      .updateTable('users')
      .set({ accepted_tos_at: null })
      .where('id', '=', user.user.id)
      .execute();
    const response = await server.api.post(
      '/app/update_consents',
      { accepted_tos: true, accepted_privacy_policy: true, marketing_consent: true },
      user.access_token,
    );
    expect(response.body).toMatchObject({
      consents: { marketing_consent: true },
      user: { marketing_consent: true },
    });
    expect((response.body.user as { accepted_tos_at: string }).accepted_tos_at).toMatch(/^\d{4}-/);
  });

  it('refuses a refusal of the terms and a mixed payload', async () => {
    const user = await signUp(server.api);
    const refused = await server.api.post(
      '/app/update_consents',
      { accepted_tos: false, accepted_privacy_policy: true, marketing_consent: false },
      user.access_token,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('It is required to agree');
    const mixed = await server.api.post(
      '/app/update_consents',
      { cookies_consent_types: ['essential'], marketing_consent: true },
      user.access_token,
    );
    expect(mixed.status).toBe(400);
  });
});
