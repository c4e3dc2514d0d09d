import { TOKEN_REFRESH_RETRIES, type TokenPair } from '@parla/contract';
import {
  ApiError,
  LegalRestrictionError,
  NetworkError,
  SessionEndedError,
  errorFromResponse,
} from './api-error';
import type { StoredTokens, TokenStore } from './token-storage';

/** Why a session ended without the user asking for it. */
export type ForcedSignOut =
  { kind: 'refresh_refused' } | { kind: 'legal_restriction'; reason: string; details: string };

/** Runs a function while holding a lock shared by every tab (Web Locks), or just runs it. */
export type LockRunner = <T>(run: () => Promise<T>) => Promise<T>;

export interface ApiClientOptions {
  baseUrl: string;
  fetch: typeof fetch;
  tokens: TokenStore;
  /** Serialises refreshes across tabs; the client already serialises them within one. */
  lock?: LockRunner;
  /** Called once when the session ends by a refused refresh or a legal restriction. */
  onForcedSignOut?: (cause: ForcedSignOut) => void;
  /** Called when a request got no response at all. */
  onNetworkError?: () => void;
  /** App information sent with a refresh. */
  extra?: () => Record<string, string>;
  now?: () => number;
  maxRefreshRetries?: number;
}

/** A parser of response bodies, such as a zod schema. */
export interface ResponseParser<T> {
  parse(value: unknown): T;
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Send the access token and refresh it on 401 (default true). */
  auth?: boolean;
  schema?: ResponseParser<T>;
  signal?: AbortSignal;
  /** Let the request outlive the page (log flushing on hide). */
  keepalive?: boolean;
  /** Do not report a missing response to onNetworkError (background calls). */
  quietNetworkErrors?: boolean;
  /** Read a successful body as bytes instead of JSON (audio, model files). */
  responseType?: 'json' | 'blob' | 'arrayBuffer';
}

/** Turns a token pair from the server into what the browser stores. */
export function toStoredTokens(pair: TokenPair, userId: string, now: number): StoredTokens {
  return {
    accessToken: pair.access_token,
    refreshToken: pair.refresh_token,
    userId,
    expiresAt: now + pair.expires_in * 1000,
  };
}

/**
 * The one HTTP client of the app: JSON in and out, errors normalised to typed errors,
 * and the access token refreshed on 401 (up to 3 times). Refreshes run one at a time:
 * the server spends a refresh token on use and treats a second use as theft.
 */
export class ApiClient {
  private refreshing: Promise<void> | null = null;
  private readonly maxRetries: number;
  private readonly now: () => number;

  constructor(private readonly options: ApiClientOptions) {
    this.maxRetries = options.maxRefreshRetries ?? TOKEN_REFRESH_RETRIES;
    this.now = options.now ?? Date.now;
  }

  get<T>(path: string, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) {
    return this.request<T>(path, { ...options, method: 'GET' });
  }

  post<T>(path: string, body?: unknown, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) {
    return this.request<T>(path, { ...options, method: 'POST', body });
  }

  async request<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    const auth = options.auth ?? true;
    for (let attempt = 0; ; attempt += 1) {
      const tokens = auth ? this.options.tokens.get() : null;
      const response = await this.send(path, options, tokens?.accessToken);
      if (response.status === 401 && auth && tokens) {
        if (attempt >= this.maxRetries) {
          this.forceSignOut({ kind: 'refresh_refused' });
          throw new SessionEndedError();
        }
        await this.refresh(tokens.refreshToken);
        continue;
      }
      if (response.ok && options.responseType === 'blob') return (await response.blob()) as T;
      if (response.ok && options.responseType === 'arrayBuffer') return (await response.arrayBuffer()) as T;
      const body = await readBody(response);
      if (!response.ok) {
        const error = errorFromResponse(response.status, body);
        if (auth && error instanceof LegalRestrictionError) {
          this.forceSignOut({ kind: 'legal_restriction', reason: error.reason, details: error.details });
        }
        throw error;
      }
      return options.schema ? options.schema.parse(body) : (body as T);
    }
  }

  /**
   * Exchanges the refresh token for a new pair now (used at start-up). Rejects with
   * SessionEndedError when there is no session or the server refuses it.
   */
  refreshNow(): Promise<void> {
    const tokens = this.options.tokens.get();
    if (!tokens) return Promise.reject(new SessionEndedError());
    return this.refresh(tokens.refreshToken);
  }

  /**
   * Refreshes unless someone else already did: `staleRefreshToken` is the one the caller
   * saw; when the stored one differs, another request or tab has refreshed meanwhile.
   */
  private refresh(staleRefreshToken: string): Promise<void> {
    this.refreshing ??= (this.options.lock ?? runDirectly)(() => this.exchange(staleRefreshToken)).finally(
      () => {
        this.refreshing = null;
      },
    );
    return this.refreshing;
  }

  private async exchange(staleRefreshToken: string) {
    const current = this.options.tokens.get();
    if (!current) throw new SessionEndedError();
    if (current.refreshToken !== staleRefreshToken) return;
    const response = await this.send(
      '/refreshAccessToken',
      { method: 'POST', body: { refreshToken: current.refreshToken, extra: this.options.extra?.() ?? {} } },
      undefined,
    );
    const body = await readBody(response);
    if (response.ok) {
      if (!isTokenPair(body)) throw new ApiError(502, 'The server answered the refresh with no tokens');
      this.options.tokens.set(toStoredTokens(body, current.userId, this.now()));
      return;
    }
    const error = errorFromResponse(response.status, body);
    if (error instanceof LegalRestrictionError) {
      this.forceSignOut({ kind: 'legal_restriction', reason: error.reason, details: error.details });
      throw error;
    }
    if (response.status === 401) {
      this.forceSignOut({ kind: 'refresh_refused' });
      throw new SessionEndedError();
    }
    throw error;
  }

  private forceSignOut(cause: ForcedSignOut) {
    if (!this.options.tokens.get()) return;
    this.options.tokens.clear();
    this.options.onForcedSignOut?.(cause);
  }

  private async send(path: string, options: RequestOptions<unknown>, accessToken: string | undefined) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (accessToken) headers.authorization = `Bearer ${accessToken}`;
    const init: RequestInit = { method: options.method ?? 'GET', headers };
    if (typeof FormData !== 'undefined' && options.body instanceof FormData) {
      // Multipart uploads: the browser writes the content type with its boundary.
      init.body = options.body;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    if (options.signal) init.signal = options.signal;
    if (options.keepalive) init.keepalive = true;
    try {
      return await this.options.fetch(buildUrl(this.options.baseUrl, path, options.query), init);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      if (!options.quietNetworkErrors) this.options.onNetworkError?.();
      throw new NetworkError();
    }
  }
}

function isTokenPair(value: unknown): value is TokenPair {
  if (typeof value !== 'object' || value === null) return false;
  const pair = value as Record<string, unknown>;
  return (
    typeof pair.access_token === 'string' &&
    typeof pair.refresh_token === 'string' &&
    typeof pair.expires_in === 'number'
  );
}

const runDirectly: LockRunner = (run) => run();

/** A lock across tabs with the Web Locks API, when the browser has it. */
export function webLockRunner(name: string): LockRunner | undefined {
  if (typeof navigator === 'undefined' || !('locks' in navigator)) return undefined;
  return (run) => navigator.locks.request(name, run);
}

function buildUrl(baseUrl: string, path: string, query: RequestOptions<unknown>['query']) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text.slice(0, 500) };
  }
}

export { ApiError };
