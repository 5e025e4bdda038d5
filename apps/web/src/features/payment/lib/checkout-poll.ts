import type { CheckoutStatusResponse } from '@dewy/contracts';
import { ApiError } from '../../../lib/api-client';

/**
 * How the payment pages ask the server about a checkout after the hosted checkout returns: at once,
 * then 0.5 s, 1 s, 1 s, then every 2 s while it is pending, for about 12 s in all. The provider's
 * webhook usually lands within a second or two; past the window the page says "processing" instead of
 * claiming a result it does not know.
 */
export const CHECKOUT_POLL = { delaysMs: [500, 1000, 1000], thenMs: 2000, windowMs: 12_000 } as const;

/**
 * Delay before the next status request, after request number `attempt` (0-based) answered pending at
 * `elapsedMs` since the first one; null when waiting longer would pass the window.
 */
export function nextCheckoutPollDelay(attempt: number, elapsedMs: number): number | null {
  const delay = CHECKOUT_POLL.delaysMs[attempt] ?? CHECKOUT_POLL.thenMs;
  return elapsedMs + delay > CHECKOUT_POLL.windowMs ? null : delay;
}

/** The whole schedule of waits (for tests and docs): [500, 1000, 1000, 2000, 2000, 2000, 2000]. */
export function checkoutPollSchedule(): number[] {
  const out: number[] = [];
  let elapsed = 0;
  for (let attempt = 0; ; attempt += 1) {
    const d = nextCheckoutPollDelay(attempt, elapsed);
    if (d === null) return out;
    out.push(d);
    elapsed += d;
  }
}

/**
 * Where polling ended: `settled` (completed, failed or cancelled as the server says), `pending` (still
 * pending when the window closed), `unauthenticated` (401: signed out; never a claim of success) or
 * `error` (no usable answer: not found, or only failures).
 */
export type CheckoutPollOutcome =
  | { kind: 'settled'; checkout: CheckoutStatusResponse }
  | { kind: 'pending'; checkout: CheckoutStatusResponse }
  | { kind: 'unauthenticated' }
  | { kind: 'error'; error: unknown };

export interface CheckoutPollDeps {
  fetchStatus: (id: string, signal?: AbortSignal) => Promise<CheckoutStatusResponse>;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  signal?: AbortSignal;
}

function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

/**
 * Ask for checkout `id` (or `latest`) on the {@link nextCheckoutPollDelay} schedule until it is no
 * longer pending. A 401 stops at once; a 4xx other than 401 (not found: not the caller's) stops with
 * `error`; network and server failures are retried within the window. An abort rejects.
 */
export async function pollCheckout(id: string, deps: CheckoutPollDeps): Promise<CheckoutPollOutcome> {
  const started = deps.now();
  let last: CheckoutStatusResponse | null = null;
  let lastError: unknown;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const checkout = await deps.fetchStatus(id, deps.signal);
      if (checkout.status !== 'pending') return { kind: 'settled', checkout };
      last = checkout;
    } catch (err) {
      if (isAbort(err)) throw err;
      if (err instanceof ApiError && (err.status === 401 || err.status === 419)) return { kind: 'unauthenticated' };
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) return { kind: 'error', error: err };
      lastError = err;
    }
    const delay = nextCheckoutPollDelay(attempt, deps.now() - started);
    if (delay === null) break;
    await deps.sleep(delay, deps.signal);
  }
  // A pending answer earlier in the window still says more than a later network failure.
  if (last) return { kind: 'pending', checkout: last };
  return { kind: 'error', error: lastError };
}

/** A sleep that an AbortSignal cuts short (rejecting with AbortError). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
