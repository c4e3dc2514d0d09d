import { describe, expect, it, vi } from 'vitest';
import { ApiClient, type ForcedSignOut } from './api-client';
import { ApiError, LegalRestrictionError, NetworkError, SessionEndedError } from './api-error';
import { createMemoryTokenStore, type StoredTokens } from './token-storage';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const initialTokens: StoredTokens = { accessToken: 'a1', refreshToken: 'r1', userId: 'u1', expiresAt: 0 };

/** A fake server: access token aN is valid only after refresh N; each refresh token works once. */
function fakeServer(options: { refreshStatus?: number; refreshBody?: unknown; failRefreshes?: number } = {}) {
  let generation = 1;
  const spent = new Set<string>();
  const calls: string[] = [];
  const fetch = vi.fn((input: string, init?: RequestInit) => {
    const url = input;
    calls.push(url);
    const headers = (init?.headers ?? {}) as Record<string, string>;
    if (url.startsWith('/refreshAccessToken')) {
      const { refreshToken } = JSON.parse(init?.body as string) as { refreshToken: string };
      if (options.refreshStatus)
        return Promise.resolve(
          json(
            options.refreshStatus,
            options.refreshBody ?? { status: options.refreshStatus, message: 'no' },
          ),
        );
      if (spent.has(refreshToken)) return Promise.resolve(json(401, { status: 401, message: 'reused' }));
      spent.add(refreshToken);
      generation += 1;
      return Promise.resolve(
        json(200, { access_token: `a${generation}`, refresh_token: `r${generation}`, expires_in: 900 }),
      );
    }
    const valid =
      headers.authorization === `Bearer a${generation}` && generation > (options.failRefreshes ?? 0) + 1;
    if (!valid) return Promise.resolve(json(401, { status: 401, message: 'Token expired' }));
    return Promise.resolve(json(200, { ok: true, path: url }));
  });
  return { fetch, calls, spent };
}

function client(
  server: ReturnType<typeof fakeServer>,
  tokens = createMemoryTokenStore({ ...initialTokens }),
) {
  const signOuts: ForcedSignOut[] = [];
  const networkErrors: number[] = [];
  const api = new ApiClient({
    baseUrl: '',
    fetch: server.fetch as unknown as typeof globalThis.fetch,
    tokens,
    onForcedSignOut: (cause) => signOuts.push(cause),
    onNetworkError: () => networkErrors.push(1),
    now: () => 1_000,
  });
  return { api, tokens, signOuts, networkErrors };
}

describe('ApiClient', () => {
  it('refreshes the access token on 401 and retries the call', async () => {
    const server = fakeServer();
    const { api, tokens } = client(server);
    await expect(api.get('/app/user')).resolves.toEqual({ ok: true, path: '/app/user' });
    expect(tokens.get()).toEqual({ accessToken: 'a2', refreshToken: 'r2', userId: 'u1', expiresAt: 901_000 });
    expect(server.calls).toEqual(['/app/user', '/refreshAccessToken', '/app/user']);
  });

  it('serialises refreshes: concurrent 401s spend the refresh token once', async () => {
    const server = fakeServer();
    const { api, signOuts } = client(server);
    const results = await Promise.all([api.get('/app/a'), api.get('/app/b'), api.get('/app/c')]);
    expect(results).toHaveLength(3);
    expect(server.calls.filter((call) => call === '/refreshAccessToken')).toHaveLength(1);
    expect(signOuts).toEqual([]);
  });

  it('does not refresh again when another caller already did', async () => {
    const server = fakeServer();
    const { api } = client(server);
    await api.get('/app/a');
    await api.get('/app/b');
    expect(server.calls.filter((call) => call === '/refreshAccessToken')).toHaveLength(1);
  });

  it('gives up after 3 refresh retries and ends the session', async () => {
    const server = fakeServer({ failRefreshes: 10 });
    const { api, tokens, signOuts } = client(server);
    await expect(api.get('/app/user')).rejects.toBeInstanceOf(SessionEndedError);
    expect(server.calls.filter((call) => call === '/refreshAccessToken')).toHaveLength(3);
    expect(tokens.get()).toBeNull();
    expect(signOuts).toEqual([{ kind: 'refresh_refused' }]);
  });

  it('a 401 on the refresh call signs out once', async () => {
    const server = fakeServer({ refreshStatus: 401 });
    const { api, tokens, signOuts } = client(server);
    await expect(Promise.all([api.get('/app/a'), api.get('/app/b')])).rejects.toBeInstanceOf(
      SessionEndedError,
    );
    expect(tokens.get()).toBeNull();
    expect(signOuts).toEqual([{ kind: 'refresh_refused' }]);
  });

  it('a legal restriction on refresh signs out with its reason and details', async () => {
    const server = fakeServer({
      refreshStatus: 451,
      refreshBody: {
        status: 451,
        message: 'Not here',
        code: 'LEGAL_RESTRICTION',
        reason: 'REGION_RESTRICTED',
        details: 'Local law',
      },
    });
    const { api, signOuts } = client(server);
    await expect(api.get('/app/user')).rejects.toBeInstanceOf(LegalRestrictionError);
    expect(signOuts).toEqual([
      { kind: 'legal_restriction', reason: 'REGION_RESTRICTED', details: 'Local law' },
    ]);
  });

  it('normalises error responses and falls back to a generic message', async () => {
    const tokens = createMemoryTokenStore(null);
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(
        json(409, { status: 409, message: 'Email address is in use', code: 'EMAIL_IN_USE' }),
      )
      .mockResolvedValueOnce(new Response('', { status: 500 }));
    const api = new ApiClient({ baseUrl: '', fetch, tokens });
    await expect(api.post('/user', {}, { auth: false })).rejects.toMatchObject({
      status: 409,
      message: 'Email address is in use',
      code: 'EMAIL_IN_USE',
    });
    const error = await api.get('/x', { auth: false }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, message: 'Something went wrong' });
  });

  it('reports a request without a response as a network error', async () => {
    const server = fakeServer();
    server.fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const { api, networkErrors } = client(server);
    await expect(api.get('/app/user')).rejects.toBeInstanceOf(NetworkError);
    expect(networkErrors).toHaveLength(1);
  });

  it('sends no token on public calls and never refreshes them', async () => {
    const server = fakeServer();
    const { api } = client(server);
    await expect(api.post('/login', {}, { auth: false })).rejects.toMatchObject({ status: 401 });
    expect(server.calls).toEqual(['/login']);
  });

  it('refreshNow without a session rejects', async () => {
    const { api } = client(fakeServer(), createMemoryTokenStore(null));
    await expect(api.refreshNow()).rejects.toBeInstanceOf(SessionEndedError);
  });

  it('sends FormData as it is and reads bytes when asked', async () => {
    const seen: RequestInit[] = [];
    const fetch = vi.fn((_input: string, init?: RequestInit) => {
      seen.push(init ?? {});
      return Promise.resolve(new Response(new Uint8Array([1, 2, 3]), { status: 200 }));
    });
    const api = new ApiClient({
      baseUrl: '',
      fetch: fetch as unknown as typeof globalThis.fetch,
      tokens: createMemoryTokenStore({ ...initialTokens }),
    });
    const form = new FormData();
    form.append('info', '{}');
    const bytes = await api.post<ArrayBuffer>('/upload', form, { responseType: 'arrayBuffer' });
    expect([...new Uint8Array(bytes)]).toEqual([1, 2, 3]);
    expect(seen[0]?.body).toBe(form);
    expect((seen[0]?.headers as Record<string, string>)['content-type']).toBeUndefined();
    const blob = await api.get<Blob>('/audio', { responseType: 'blob' });
    expect(blob.size).toBe(3);
  });
});
