/**
 * For tests: the Web Locks of one browser profile, shared by the "tabs" (outboxes) given it.
 * A request waits for the one before it of the same name.
 */
export function fakeLockManager(): LockManager {
  const last = new Map<string, Promise<unknown>>();
  const request = (name: string, work: () => Promise<unknown>) => {
    const run = (last.get(name) ?? Promise.resolve()).then(work);
    last.set(
      name,
      run.catch(() => undefined),
    );
    return run;
  };
  return { request } as unknown as LockManager;
}
