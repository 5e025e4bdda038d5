import { useEffect, useSyncExternalStore } from 'react';

/** What a {@link createSharedResource} hook returns: the last good value and how the fetching went. */
export interface SharedResourceState<T> {
  data: T | undefined;
  /** 'pending' until the first fetch settles; 'error' when it failed with no value to keep. */
  status: 'pending' | 'success' | 'error';
}

/**
 * One GET shared by every component of the shell (header, footer, route guards) without React Query,
 * which stays out of the landing route's first-load JavaScript (decision 025). The first component that
 * mounts starts the fetch; later ones reuse the value while it is younger than `staleMs` and refetch
 * in the background after that (the old value stays shown). A failure is retried `retries` times.
 *
 * @param fetcher the call (rejects on failure)
 * @param opts.staleMs milliseconds a value counts as fresh
 * @param opts.retries extra attempts after a failure
 * @returns a hook reading the shared state
 */
export function createSharedResource<T>(fetcher: () => Promise<T>, opts: { staleMs: number; retries: number }): () => SharedResourceState<T> {
  let state: SharedResourceState<T> = { data: undefined, status: 'pending' };
  let fetchedAt = 0;
  let inflight = false;
  const listeners = new Set<() => void>();
  const publish = (next: SharedResourceState<T>) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const attempt = async (left: number): Promise<void> => {
    try {
      const data = await fetcher();
      publish({ data, status: 'success' });
    } catch {
      if (left > 0) return attempt(left - 1);
      publish({ data: state.data, status: state.data === undefined ? 'error' : 'success' });
    }
  };
  const ensureFresh = () => {
    if (inflight || (fetchedAt > 0 && Date.now() - fetchedAt < opts.staleMs)) return;
    inflight = true;
    fetchedAt = Date.now();
    void attempt(opts.retries).finally(() => {
      inflight = false;
      fetchedAt = Date.now();
    });
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const snapshot = () => state;
  return function useSharedResource() {
    const current = useSyncExternalStore(subscribe, snapshot, snapshot);
    useEffect(ensureFresh, []);
    return current;
  };
}
