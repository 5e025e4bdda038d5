/**
 * User-row change announcements (decision 039, replacing direct calls into the HTTP session cache).
 *
 * The writers of a `users` row whose values the session answer shows (the credit ledger's balances and
 * debt, the billing webhook's plan, the profile's nickname, the verified address…) announce the change
 * here, in this process, right after the write. Whoever keeps derived copies of user rows listens: the
 * session caches of modules/auth (decision 026 layer 1, "this process, at once") register at load. So the
 * ledger, which sits below auth, never imports it, and a new listener needs no change in any writer.
 * Other processes learn the change from the `users` triggers' NOTIFY at commit (decision 026 layer 2),
 * whatever this list holds.
 */

/** Called with the id of a user whose row just changed. Must not throw, block or write. */
export type UserChangeListener = (userId: number) => void;

const listeners = new Set<UserChangeListener>();

/**
 * Registers `listener` for every later announcement in this process (a listener added twice is called
 * once).
 * @returns a function that removes it
 */
export function onUserChanged(listener: UserChangeListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Tells every listener of this process that the row of `userId` changed. Call it after the write (inside
 * a transaction as well: a listener that drops a cached copy early is harmless, the triggers cover the
 * commit). A listener that throws is skipped; the others still hear it.
 */
export function announceUserChanged(userId: number): void {
  for (const l of [...listeners]) {
    try {
      l(userId);
    } catch {
      // A listener's failure must not fail the writer (the ledger's transaction, a webhook).
    }
  }
}
