import { DEFAULT_PRICES, type PricesResponse } from '@dewy/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH_INVALID_EVENT } from './api-client';
import { fetchPrices, pricesFrom } from './prices';

afterEach(() => vi.unstubAllGlobals());

/** Answers every call with `status` and `body`; records each call's method, path and JSON body, and each auth:invalid event. */
function fakeServer(status: number, body: unknown) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const authInvalid: unknown[] = [];
  const win = new EventTarget();
  win.addEventListener(AUTH_INVALID_EVENT, (e) => authInvalid.push((e as CustomEvent).detail));
  vi.stubGlobal('window', win);
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit = {}) => {
    calls.push({ method: init.method ?? 'GET', path: url, body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }));
  return { calls, authInvalid };
}

const ANSWER: PricesResponse = {
  success: true,
  prices: { ...DEFAULT_PRICES, basic: { usd: 990, krw: 13_900 } },
  currencies: ['usd'],
};

describe('the prices (issue 25)', () => {
  it('reads GET /api/payment/prices without raising a session event', async () => {
    const api = fakeServer(401, { success: false, code: 'UNAUTHENTICATED' });
    await expect(fetchPrices()).rejects.toMatchObject({ status: 401 });
    expect(api.authInvalid).toEqual([]);
    vi.unstubAllGlobals();
    const ok = fakeServer(200, ANSWER);
    expect(await fetchPrices()).toEqual(ANSWER);
    expect(ok.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/payment/prices']);
  });

  it('shows contracts’ default table until the server answers, and the currencies only once it has', () => {
    expect(pricesFrom(undefined)).toEqual({ table: DEFAULT_PRICES, currencies: null });
    expect(pricesFrom(ANSWER)).toEqual({ table: ANSWER.prices, currencies: ['usd'] });
  });
});
