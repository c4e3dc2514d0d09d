/** Errors that a fresh page load usually cures: a chunk of a newer build, or a stale module. */
export type ReloadKind = 'chunk_load' | 'not_a_function';

const CHUNK_LOAD_PATTERNS = [
  /failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /importing a module script failed/i,
  /loading (css )?chunk [\w-]+ failed/i,
  /chunkloaderror/i,
];

export function reloadKindOf(error: unknown): ReloadKind | null {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (CHUNK_LOAD_PATTERNS.some((pattern) => pattern.test(text))) return 'chunk_load';
  if (/is not a function/i.test(text)) return 'not_a_function';
  return null;
}

/** At most one automatic reload per kind in each throttle window (spec section 8: 60 s). */
export function shouldAutoReload(lastReloadAt: number | undefined, now: number, throttleMs: number): boolean {
  return lastReloadAt === undefined || now - lastReloadAt >= throttleMs;
}

const KEY = 'parla.autoReload';

/** Reloads the page for the error when the policy allows; returns whether it did. */
export function autoReloadFor(
  error: unknown,
  throttleMs: number,
  storage: Storage = sessionStorage,
): boolean {
  const kind = reloadKindOf(error);
  if (!kind) return false;
  const record = readReloads(storage);
  const now = Date.now();
  if (!shouldAutoReload(record[kind], now, throttleMs)) return false;
  storage.setItem(KEY, JSON.stringify({ ...record, [kind]: now }));
  window.location.reload();
  return true;
}

function readReloads(storage: Storage): Partial<Record<ReloadKind, number>> {
  try {
    return JSON.parse(storage.getItem(KEY) ?? '{}') as Partial<Record<ReloadKind, number>>;
  } catch {
    return {};
  }
}
