import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH_INVALID_EVENT } from './api-client';
import { postCheckout, postCreditCheckout } from './billing-api';

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

describe('the checkout calls carry the currency shown (issue 25)', () => {
  it('sends the chosen currency with both checkouts, and none when the page leaves it to the server', async () => {
    const api = fakeServer(200, { success: true, checkout_url: '/sandbox/checkout/x' });
    await postCheckout('basic', 'krw');
    await postCreditCheckout('package1', 'usd');
    await postCreditCheckout('package2');
    expect(api.calls.map((c) => [c.path, c.body])).toEqual([
      ['/api/payment/checkout', { plan: 'basic', currency: 'krw' }],
      ['/api/payment/credit-checkout', { package: 'package1', currency: 'usd' }],
      ['/api/payment/credit-checkout', { package: 'package2' }],
    ]);
  });

  it('fails with the server’s code when the provider lacks the currency', async () => {
    fakeServer(400, { success: false, code: 'CURRENCY_NOT_AVAILABLE', message: '이 결제 수단에서는 원화 결제를 할 수 없습니다.' });
    await expect(postCheckout('deluxe', 'krw')).rejects.toMatchObject({ status: 400, code: 'CURRENCY_NOT_AVAILABLE' });
  });
});
