import type { CheckoutStatusResponse } from '@dewy/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { CHECKOUT_POLL, abortableSleep, checkoutPollSchedule, nextCheckoutPollDelay, pollCheckout, type CheckoutPollDeps } from './checkout-poll';

function checkout(status: CheckoutStatusResponse['status'], creditsGranted = 0): CheckoutStatusResponse {
  return { success: true, checkoutId: 'co_1', status, kind: 'pack', plan: null, package: 'package1', creditsGranted };
}

/** A fake clock: sleeping advances it; each request costs `requestMs`. */
function deps(answers: Array<CheckoutStatusResponse | Error>, requestMs = 50): CheckoutPollDeps & { calls: number; slept: number[] } {
  let t = 0;
  const state = {
    calls: 0,
    slept: [] as number[],
    now: () => t,
    sleep: async (ms: number) => {
      state.slept.push(ms);
      t += ms;
    },
    fetchStatus: async () => {
      t += requestMs;
      const a = answers[Math.min(state.calls, answers.length - 1)];
      state.calls += 1;
      if (a instanceof Error) throw a;
      return a as CheckoutStatusResponse;
    },
  };
  return state;
}

describe('checkout poll schedule', () => {
  it('waits 0.5 s, 1 s, 1 s, then 2 s, within about 12 s', () => {
    expect(checkoutPollSchedule()).toEqual([500, 1000, 1000, 2000, 2000, 2000, 2000]);
    expect(checkoutPollSchedule().reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(CHECKOUT_POLL.windowMs);
  });
  it('stops when the next wait would pass the window', () => {
    expect(nextCheckoutPollDelay(0, 0)).toBe(500);
    expect(nextCheckoutPollDelay(5, 10_000)).toBe(2000);
    expect(nextCheckoutPollDelay(6, 10_001)).toBeNull();
  });
});

describe('pollCheckout', () => {
  it('returns at once when the checkout is already settled', async () => {
    const d = deps([checkout('completed', 1500)]);
    await expect(pollCheckout('co_1', d)).resolves.toEqual({ kind: 'settled', checkout: checkout('completed', 1500) });
    expect(d.calls).toBe(1);
  });

  it('polls while pending and reports the completion', async () => {
    const d = deps([checkout('pending'), checkout('pending'), checkout('completed', 4500)]);
    const out = await pollCheckout('latest', d);
    expect(out).toEqual({ kind: 'settled', checkout: checkout('completed', 4500) });
    expect(d.slept).toEqual([500, 1000]);
  });

  it('reports failed and cancelled as settled, never as completed', async () => {
    await expect(pollCheckout('co_1', deps([checkout('pending'), checkout('failed')]))).resolves.toMatchObject({ kind: 'settled', checkout: { status: 'failed' } });
    await expect(pollCheckout('co_1', deps([checkout('cancelled')]))).resolves.toMatchObject({ kind: 'settled', checkout: { status: 'cancelled' } });
  });

  it('gives up as pending after the window', async () => {
    const d = deps([checkout('pending')]);
    await expect(pollCheckout('co_1', d)).resolves.toEqual({ kind: 'pending', checkout: checkout('pending') });
    expect(d.calls).toBeGreaterThanOrEqual(7);
    expect(d.now()).toBeLessThanOrEqual(CHECKOUT_POLL.windowMs + 1000);
  });

  it('stops at a 401 (signed out) and at a not-found', async () => {
    const unauth = deps([new ApiError(401, 'UNAUTHENTICATED', 'Please log in.', undefined, null)]);
    await expect(pollCheckout('co_1', unauth)).resolves.toEqual({ kind: 'unauthenticated' });
    expect(unauth.calls).toBe(1);
    const missing = deps([new ApiError(404, 'NOT_FOUND', 'Not found.', undefined, null)]);
    await expect(pollCheckout('co_1', missing)).resolves.toMatchObject({ kind: 'error' });
    expect(missing.calls).toBe(1);
  });

  it('retries network and server failures within the window', async () => {
    const d = deps([new ApiError(0, 'NETWORK', 'offline', undefined, null), new ApiError(502, 'PAYMENT_PROVIDER_ERROR', 'x', undefined, null), checkout('completed', 1500)]);
    await expect(pollCheckout('co_1', d)).resolves.toMatchObject({ kind: 'settled', checkout: { status: 'completed' } });
    const down = deps([new ApiError(0, 'NETWORK', 'offline', undefined, null)]);
    await expect(pollCheckout('co_1', down)).resolves.toMatchObject({ kind: 'error' });
    const flaky = deps([checkout('pending'), new ApiError(0, 'NETWORK', 'offline', undefined, null)]);
    await expect(pollCheckout('co_1', flaky)).resolves.toMatchObject({ kind: 'pending' });
  });

  it('an abort rejects the sleep', async () => {
    const ac = new AbortController();
    const p = abortableSleep(10_000, ac.signal);
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});
