import { useEffect } from 'react';

/** How often a page with something waiting looks again for a server that was down. */
const LOOK_AGAIN_MS = 30_000;

/**
 * Calls `send` (an outbox's flush) now, whenever the browser comes back online, and every
 * 30 s: a server that was down comes back without an online event. `send` should be stable
 * (a callback), or it is called again each time it changes.
 */
export function useSendWhenOnline(send: () => void) {
  useEffect(() => {
    // What an earlier visit left behind goes first.
    const first = window.setTimeout(send, 0);
    window.addEventListener('online', send);
    const timer = window.setInterval(send, LOOK_AGAIN_MS);
    return () => {
      window.clearTimeout(first);
      window.removeEventListener('online', send);
      window.clearInterval(timer);
    };
  }, [send]);
}
