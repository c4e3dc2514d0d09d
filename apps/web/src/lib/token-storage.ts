/** The signed-in session's tokens as the browser keeps them. */
export interface StoredTokens {
  accessToken: string;
  refreshToken: string;
  userId: string;
  /** Epoch milliseconds when the access token expires. */
  expiresAt: number;
}

export interface TokenStore {
  get(): StoredTokens | null;
  set(tokens: StoredTokens): void;
  clear(): void;
}

const KEY = 'parla.session';

function isStoredTokens(value: unknown): value is StoredTokens {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.accessToken === 'string' &&
    typeof record.refreshToken === 'string' &&
    typeof record.userId === 'string' &&
    typeof record.expiresAt === 'number'
  );
}

/**
 * Tokens in localStorage, so that tabs share one session: a refresh in one tab is seen
 * by the others before they spend the same refresh token.
 */
export function createLocalTokenStore(storage: Storage = localStorage): TokenStore {
  return {
    get() {
      try {
        const parsed: unknown = JSON.parse(storage.getItem(KEY) ?? 'null');
        return isStoredTokens(parsed) ? parsed : null;
      } catch {
        return null;
      }
    },
    set(tokens) {
      storage.setItem(KEY, JSON.stringify(tokens));
    },
    clear() {
      storage.removeItem(KEY);
    },
  };
}

/** A store in memory, for tests and for browsers that refuse storage. */
export function createMemoryTokenStore(initial: StoredTokens | null = null): TokenStore {
  let tokens = initial;
  return {
    get: () => tokens,
    set: (next) => {
      tokens = next;
    },
    clear: () => {
      tokens = null;
    },
  };
}
