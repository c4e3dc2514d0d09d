import { hashPasswordForTransport, type SessionResponse, type TokenPair } from '@parla/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adultSignUp, signUp, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RESTRICTED_REGIONS: 'KP,US-TX' });
});
afterAll(() => server.close());

async function signUpRequest(overrides: Parameters<typeof adultSignUp>[0] = {}) {
  const { clearPassword, ...request } = adultSignUp(overrides);
  return { ...request, password: await hashPasswordForTransport(clearPassword) };
}

describe('POST /user (sign-up)', () => {
  it('creates an adult account and signs it in', async () => {
    const request = await signUpRequest({
      source_tracking: { utm_source: 'clinic', referrer: 'https://example.org' },
      cookies_consent_types: ['non_essential'],
    });
    const { status, body } = await server.api.post<SessionResponse>('/user', request);
    expect(status).toBe(201);
    expect(body.access_token).toBeTruthy();
    expect(body.refresh_token).toBeTruthy();
    expect(body.user).toMatchObject({
      email: request.email,
      name: 'Alex Rivera',
      is_test_user: false,
      tasks: [],
      marketing_consent: false,
      cookies_consent_types: ['essential', 'non_essential'],
      settings: { min_silence_length_seconds: 0.3, filter_profanities: false },
    });
    expect(body.user.accepted_tos_at).toMatch(/^\d{4}-/);
    const me = await server.api.get('/app/user', body.access_token);
    expect(me.body).toMatchObject({ id: body.user.id });
  });

  it('refuses an address already in use, whatever its case', async () => {
    const first = await signUp(server.api);
    const again = await signUpRequest({ email: first.email.toUpperCase() });
    const { status, body } = await server.api.post('/user', again);
    expect(status).toBe(409);
    expect(body).toEqual({ status: 409, message: 'Email address is in use', code: 'EMAIL_IN_USE' });
  });

  it('asks a minor for a guardian email, the regional consent form and support-person consent', async () => {
    const today = new Date();
    const birthdate = `${today.getUTCFullYear() - 12}-01-15`;
    const minor = await signUpRequest({ birthdate, country: 'CA', region_code: 'ON' });

    let response = await server.api.post('/user', minor);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^parent_email: /);

    response = await server.api.post('/user', { ...minor, parent_email: 'guardian@example.org' });
    expect(response.body.message).toBe(
      'guardian_consent: the guardian consent form for CAN is required for a minor',
    );

    const usaForm = { region: 'USA', guardian_name: 'Sam Rivera', relationship: 'parent', agreed: true };
    response = await server.api.post('/user', {
      ...minor,
      parent_email: 'guardian@example.org',
      guardian_consent: usaForm,
    });
    expect(response.body.message).toBe('guardian_consent: use the consent form for CAN');

    const canForm = { ...usaForm, region: 'CAN' };
    response = await server.api.post('/user', {
      ...minor,
      parent_email: 'guardian@example.org',
      guardian_consent: canForm,
    });
    expect(response.body.message).toMatch(/^support_person_consent: /);

    response = await server.api.post('/user', {
      ...minor,
      parent_email: 'guardian@example.org',
      guardian_consent: canForm,
      support_person_consent: true,
    });
    expect(response.status).toBe(201);
  });

  it('uses the age of majority of the region', async () => {
    const year = new Date().getUTCFullYear() - 20;
    // 20 years old: an adult in New York, a minor in Mississippi (21).
    const response = await server.api.post(
      '/user',
      await signUpRequest({ birthdate: `${year}-01-01`, region_code: 'MS' }),
    );
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/parent_email/);
  });

  it('names the field of each bad input and stores nothing', async () => {
    const request = await signUpRequest();
    const cases: [unknown, RegExp][] = [
      [{ ...request, email: 'not-an-email' }, /^email: Enter a valid email address$/],
      [{ ...request, password: 'clear text' }, /^password must be the client-side PBKDF2/],
      [{ ...request, birthdate: '2999-01-01' }, /^birthdate cannot be in the future$/],
      [{ ...request, birthdate: '12/04/1980' }, /^birthdate must be a date/],
      [{ ...request, accepted_tos: false }, /^accepted_tos: Terms of Service have not been accepted\.$/],
      [{ ...request, country: 'USA' }, /^country must be an ISO 3166-1 alpha-2 code/],
      [{ ...request, name: 42 }, /^name: /],
      [{ ...request, is_admin: true }, /^Unknown field: is_admin$/],
    ];
    for (const [body, message] of cases) {
      const response = await server.api.post('/user', body);
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      expect(response.body.message).toMatch(message);
    }
    const login = await server.api.post('/login', { email: request.email, password: request.password });
    expect(login.status).toBe(401);
  });

  it('answers malformed JSON, a wrong content type and an oversized body clearly', async () => {
    let response = await server.api.request('POST', '/user', { rawBody: '{"email": ' });
    expect(response.body).toEqual({
      status: 400,
      message: 'The request body is not valid JSON',
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
    });
    response = await server.api.request('POST', '/login', {
      rawBody: '<email/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(response.body).toMatchObject({
      status: 415,
      message: 'Send the request body as application/json',
    });
    response = await server.api.request('POST', '/login', {
      rawBody: 'email=a',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    response = await server.api.request('POST', '/user', {
      rawBody: JSON.stringify({ name: 'x'.repeat(200_000) }),
    });
    expect(response.body).toMatchObject({ status: 413, message: 'The request body is too large' });
  });

  it('refuses sign-up where the service is legally restricted', async () => {
    const response = await server.api.post(
      '/user',
      await signUpRequest({ country: 'US', region_code: 'TX' }),
    );
    expect(response.status).toBe(451);
    expect(response.body).toMatchObject({ code: 'LEGAL_RESTRICTION', reason: 'REGION_RESTRICTED' });
    expect(response.body.details).toContain('US-TX');
  });
});

describe('POST /login', () => {
  it('signs in with the right password only', async () => {
    const user = await signUp(server.api);
    const ok = await server.api.post<SessionResponse>('/login', {
      email: user.email,
      password: user.transportPassword,
      app_id: 'casr_web_app',
      api_key: server.config.appApiKey,
      extra: { app_build: '0.0.48' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(user.user.id);

    const wrong = await server.api.post('/login', {
      email: user.email,
      password: await hashPasswordForTransport('not my password 1'),
    });
    expect(wrong.body).toEqual({
      status: 401,
      message: 'Wrong email or password',
      code: 'INVALID_CREDENTIALS',
    });

    const unknown = await server.api.post('/login', {
      email: 'nobody@example.org',
      password: user.transportPassword,
    });
    expect(unknown.body).toEqual(wrong.body);

    const badApp = await server.api.post('/login', {
      email: user.email,
      password: user.transportPassword,
      app_id: 'other',
    });
    expect(badApp.body).toMatchObject({ status: 401, code: 'UNKNOWN_APP' });
  });
});

describe('POST /refreshAccessToken', () => {
  it('rotates the refresh token and revokes the family when a spent one comes back', async () => {
    const user = await signUp(server.api);
    const first = await server.api.post<TokenPair>('/refreshAccessToken', {
      refreshToken: user.refresh_token,
    });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(user.refresh_token);
    expect((await server.api.get('/app/tasks', first.body.access_token)).status).toBe(200);

    // A thief replays the old token: the whole session ends, for them and for the user.
    const replay = await server.api.post('/refreshAccessToken', { refreshToken: user.refresh_token });
    expect(replay.body).toMatchObject({ status: 401, code: 'REFRESH_TOKEN_REUSED' });
    const afterReplay = await server.api.post('/refreshAccessToken', {
      refreshToken: first.body.refresh_token,
    });
    expect(afterReplay.status).toBe(401);
    expect((await server.api.get('/app/tasks', first.body.access_token)).body).toMatchObject({
      code: 'SESSION_ENDED',
    });
  });

  it('refuses an expired refresh token and an unknown one', async () => {
    const user = await signUp(server.api);
    await server.db
      .updateTable('refresh_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.user.id)
      .execute();
    const expired = await server.api.post('/refreshAccessToken', { refreshToken: user.refresh_token });
    expect(expired.body).toMatchObject({ status: 401, message: 'Token expired' });
    const unknown = await server.api.post('/refreshAccessToken', { refreshToken: 'nope' });
    expect(unknown.body).toMatchObject({ status: 401, code: 'INVALID_REFRESH_TOKEN' });
  });

  it('answers a legal restriction with reason and details on login and refresh', async () => {
    const user = await signUp(server.api, { country: 'DE', region_code: undefined });
    // The person moved to a restricted country.
    await server.db.updateTable('users').set({ country: 'KP' }).where('id', '=', user.user.id).execute();
    const refresh = await server.api.post('/refreshAccessToken', { refreshToken: user.refresh_token });
    expect(refresh.status).toBe(451);
    expect(refresh.body).toMatchObject({
      status: 451,
      code: 'LEGAL_RESTRICTION',
      reason: 'REGION_RESTRICTED',
    });
    expect(typeof refresh.body.details).toBe('string');
    const login = await server.api.post('/login', { email: user.email, password: user.transportPassword });
    expect(login.status).toBe(451);
    expect(login.body).toHaveProperty('reason');
  });
});

describe('password reset', () => {
  function codeFrom(email: string) {
    const message = server.mailer.lastTo(email);
    const code = /code is: (\d{6})/.exec(message?.text ?? '')?.[1];
    if (!code) throw new Error('no reset email');
    return code;
  }

  it('emails a code that gives a one-time token to set a new password; other sessions end', async () => {
    const user = await signUp(server.api);
    expect((await server.api.post('/forgotPassword', { email: user.email })).body).toEqual({ ok: true });
    const code = codeFrom(user.email);

    const wrong = await server.api.post('/validateResetCode', {
      email: user.email,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.body).toMatchObject({ status: 400, code: 'RESET_CODE_WRONG' });

    const valid = await server.api.post<{ update_token: string }>('/validateResetCode', {
      email: user.email,
      code,
    });
    expect(valid.status).toBe(200);
    const password = await hashPasswordForTransport('a new password 7');
    const reset = await server.api.post<SessionResponse>('/resetPassword', {
      update_token: valid.body.update_token,
      email: user.email,
      password,
      app_id: 'casr_web_app',
    });
    expect(reset.status).toBe(200);
    expect(reset.body.user.id).toBe(user.user.id);

    expect(
      (await server.api.post('/login', { email: user.email, password: user.transportPassword })).status,
    ).toBe(401);
    expect((await server.api.post('/login', { email: user.email, password })).status).toBe(200);
    expect((await server.api.get('/app/tasks', user.access_token)).status).toBe(401);
    const again = await server.api.post('/resetPassword', {
      update_token: valid.body.update_token,
      email: user.email,
      password,
    });
    expect(again.body).toMatchObject({ status: 400, code: 'RESET_TOKEN_INVALID' });
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const before = server.mailer.sent.length;
    const response = await server.api.post('/forgotPassword', { email: 'nobody-here@example.org' });
    expect(response.body).toEqual({ ok: true });
    expect(server.mailer.sent.length).toBe(before);
  });

  it('refuses an expired code, and stops after five wrong codes', async () => {
    const user = await signUp(server.api);
    await server.api.post('/forgotPassword', { email: user.email });
    const code = codeFrom(user.email);
    await server.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1) })
      .where('user_id', '=', user.user.id)
      .execute();
    const expired = await server.api.post('/validateResetCode', { email: user.email, code });
    expect(expired.body).toMatchObject({ status: 410, code: 'RESET_CODE_EXPIRED' });

    await server.api.post('/forgotPassword', { email: user.email });
    const fresh = codeFrom(user.email);
    const wrongCode = fresh === '123456' ? '654321' : '123456';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await server.api.post('/validateResetCode', { email: user.email, code: wrongCode });
    }
    const locked = await server.api.post('/validateResetCode', { email: user.email, code: fresh });
    expect(locked.body).toMatchObject({ status: 429, code: 'RESET_CODE_ATTEMPTS' });
    const badShape = await server.api.post('/validateResetCode', { email: user.email, code: '12ab' });
    expect(badShape.body.message).toBe('code must be the 6 digits from the email');
  });
});

describe('signed-in account actions', () => {
  it('ends the session on logout', async () => {
    const user = await signUp(server.api);
    const other = await server.api.post<SessionResponse>('/login', {
      email: user.email,
      password: user.transportPassword,
    });
    const logout = await server.api.post('/app/logAuthEvent', { event: 'logout' }, user.access_token);
    expect(logout.body).toEqual({ ok: true });
    expect((await server.api.get('/app/tasks', user.access_token)).status).toBe(401);
    expect((await server.api.post('/refreshAccessToken', { refreshToken: user.refresh_token })).status).toBe(
      401,
    );
    // The session on another device goes on.
    expect((await server.api.get('/app/tasks', other.body.access_token)).status).toBe(200);
    const unknownEvent = await server.api.post(
      '/app/logAuthEvent',
      { event: 'dance' },
      other.body.access_token,
    );
    expect(unknownEvent.status).toBe(400);
  });

  it('authorizes secure content with the password, for the own account only', async () => {
    const user = await signUp(server.api);
    const stranger = await signUp(server.api);
    const ok = await server.api.post(
      '/authorizeForSecureContent',
      { password: user.transportPassword, user_id: user.user.id },
      user.access_token,
    );
    expect(ok.body).toMatchObject({ authorized: true, expires_in: 300 });
    const wrong = await server.api.post(
      '/authorizeForSecureContent',
      { password: await hashPasswordForTransport('wrong guess 11'), user_id: user.user.id },
      user.access_token,
    );
    expect(wrong.body).toMatchObject({ status: 401, code: 'INVALID_PASSWORD' });
    const others = await server.api.post(
      '/authorizeForSecureContent',
      { password: stranger.transportPassword, user_id: stranger.user.id },
      user.access_token,
    );
    expect(others.body).toEqual({ status: 404, message: 'User not found', code: 'NOT_FOUND' });
  });

  it('deletes the account with its data and keeps only an anonymous receipt', async () => {
    const user = await signUp(server.api);
    await server.api.post('/app/support', { type: 'question', text: 'How do I record?' }, user.access_token);
    const bad = await server.api.request('DELETE', '/app/end_user/delete_account', {
      body: { opt_out_audio_recognition: 'yes' },
      token: user.access_token,
    });
    expect(bad.status).toBe(400);
    const deleted = await server.api.request('DELETE', '/app/end_user/delete_account', {
      body: { opt_out_audio_recognition: true, opt_out_audio_training: false },
      token: user.access_token,
    });
    expect(deleted.body).toEqual({ ok: true });
    expect(
      (await server.api.post('/login', { email: user.email, password: user.transportPassword })).status,
    ).toBe(401);
    expect((await server.api.get('/app/profile', user.access_token)).status).toBe(401);
    for (const table of [
      'profiles',
      'support_requests',
      'refresh_tokens',
      'subscriptions',
      'auth_events',
    ] as const) {
      const rows = await server.db
        .selectFrom(table)
        .select('user_id')
        .where('user_id', '=', user.user.id)
        .execute();
      expect(rows, table).toHaveLength(0);
    }
    const receipt = await server.db
      .selectFrom('account_deletions')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(receipt).toMatchObject({ opt_out_audio_recognition: true, opt_out_audio_training: false });
  });
});
