/**
 * Runs `work` holding the browser's lock `name` (Web Locks), so that of all the app's tabs
 * only one does it at a time: two tabs sending one outbox at once would each send every
 * record. Where the browser has no Web Locks, `work` runs at once.
 */
export function oneTabAtATime<T>(
  name: string,
  work: () => Promise<T>,
  // Typed as always there; not so in older browsers, nor in Node.
  locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks,
): Promise<T> {
  return locks === undefined ? work() : locks.request(name, work);
}
