import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaidPlan } from '@dewy/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakePaddle, type FakePaddle } from '../../../../test/fakes/fake-paddle.server';
import { PADDLE_FAKE_PRICES, PADDLE_TEST_PRICES, PADDLE_TEST_PRICES_KRW } from '../../../../test/helpers/billing';
import { loadConfig } from '../../../config';
import { PaymentProviderError, WebhookSignatureError, type CheckoutRequest, type PaymentsProvider } from '../payments-provider';
import { createPaymentsProvider } from './index';
import { createPaddleProvider, paymentMethodOf, PADDLE_CHECKOUT_PATH, PADDLE_WEBHOOK_TOLERANCE_SECONDS } from './paddle.provider';

// Contract tests of the Paddle adapter against the fake Paddle API (test/fakes/fake-paddle.server.ts):
// what the adapter sends is asserted at the fake, what it answers against the normalised shapes.

const API_KEY = 'pdl_sdbx_apikey_01dewycontracttests0000000001';
const WEBHOOK_SECRET = 'pdl_ntfset_01dewycontract_secret';
const PUBLIC_URL = 'https://dewy.test';

let fake: FakePaddle;
let paddle: PaymentsProvider;

beforeAll(async () => {
  fake = await startFakePaddle({ apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET, prices: PADDLE_FAKE_PRICES });
  paddle = provider();
});

afterAll(async () => {
  await fake?.close();
});

beforeEach(() => {
  fake.requests.length = 0;
});

function provider(over: { apiKey?: string; baseUrl?: string; krw?: boolean; now?: () => number; timeoutMs?: number } = {}): PaymentsProvider {
  return createPaddleProvider(
    { apiKey: over.apiKey ?? API_KEY, webhookSecret: WEBHOOK_SECRET, baseUrl: over.baseUrl ?? fake.origin, prices: PADDLE_TEST_PRICES, pricesKrw: over.krw === false ? null : PADDLE_TEST_PRICES_KRW },
    { publicUrl: PUBLIC_URL, now: over.now, timeoutMs: over.timeoutMs },
  );
}

let seq = 0;
function checkout(item: CheckoutRequest['item'], o: { userId?: number; currency?: 'usd' | 'krw'; locale?: 'ko' | 'en'; email?: string } = {}): CheckoutRequest {
  seq += 1;
  const userId = o.userId ?? 42;
  return {
    checkoutId: `chk_${seq}`, userId, email: o.email ?? `u${userId}-${seq}@example.com`, item, currency: o.currency ?? 'usd', locale: o.locale ?? 'ko',
    successUrl: 'https://dewy.test/payment/success', cancelUrl: 'https://dewy.test/payment/cancel',
  };
}

/** A paid subscription to `plan`, bought through the adapter's checkout and paid at the fake with `method`. */
async function subscribe(plan: PaidPlan, o: { currency?: 'usd' | 'krw'; method?: string } = {}) {
  const req = checkout({ kind: 'plan', plan }, { currency: o.currency });
  const { providerCheckoutId } = await paddle.createCheckout(req);
  const done = fake.completeCheckout(providerCheckoutId, { method: o.method ?? 'card' });
  return { req, transactionId: providerCheckoutId, subscriptionId: done.subscriptionId! };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('createCheckout', () => {
  it('a plan in won: a customer by e-mail, a KRW transaction of the won price with our ids, paid at our checkout page (English)', async () => {
    const req = checkout({ kind: 'plan', plan: 'deluxe' }, { userId: 7, currency: 'krw', locale: 'en', email: 'kim@example.com' });
    const out = await paddle.createCheckout(req);

    expect(fake.requestsTo('GET', '/customers')[0]?.query).toMatchObject({ email: 'kim@example.com' });
    const created = fake.requestsTo('POST', '/customers');
    expect(created.map((r) => r.body)).toEqual([{ email: 'kim@example.com' }]);
    const [sent] = fake.requestsTo('POST', '/transactions');
    expect(sent?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const customerId = fake.object(out.providerCheckoutId).customer_id;
    expect(sent?.body).toEqual({
      items: [{ price_id: PADDLE_TEST_PRICES_KRW.deluxe, quantity: 1 }],
      customer_id: customerId,
      currency_code: 'KRW',
      collection_mode: 'automatic',
      custom_data: { user_id: '7', checkout_id: req.checkoutId, kind: 'plan', item: 'deluxe' },
      checkout: { url: `${PUBLIC_URL}/en${PADDLE_CHECKOUT_PATH}` },
    });
    expect(out.providerCheckoutId).toMatch(/^txn_[a-z\d]{26}$/);
    expect(out.url).toBe(`${PUBLIC_URL}/en${PADDLE_CHECKOUT_PATH}?_ptxn=${out.providerCheckoutId}`);

    // The same customer again: found, not created twice.
    fake.requests.length = 0;
    await paddle.createCheckout(checkout({ kind: 'pack', pack: 'package1' }, { userId: 7, email: 'KIM@example.com' }));
    expect(fake.requestsTo('POST', '/customers')).toHaveLength(0);
    expect((fake.requestsTo('POST', '/transactions')[0]?.body as { customer_id: string }).customer_id).toBe(customerId);
  });

  it('a pack in dollars, Korean page: the dollar price and our page without /en', async () => {
    const out = await paddle.createCheckout(checkout({ kind: 'pack', pack: 'package3' }));
    const body = fake.requestsTo('POST', '/transactions')[0]?.body as { items: unknown; currency_code: string; checkout: { url: string } };
    expect(body.items).toEqual([{ price_id: PADDLE_TEST_PRICES.package3, quantity: 1 }]);
    expect(body.currency_code).toBe('USD');
    expect(body.checkout.url).toBe(`${PUBLIC_URL}${PADDLE_CHECKOUT_PATH}`);
    expect(out.url).toContain('?_ptxn=txn_');
  });

  it('offers won only with won prices; without them a won checkout is refused before any call', async () => {
    expect(paddle.currencies).toEqual(['usd', 'krw']);
    const usdOnly = provider({ krw: false });
    expect(usdOnly.currencies).toEqual(['usd']);
    const e = await rejection(usdOnly.createCheckout(checkout({ kind: 'pack', pack: 'package1' }, { currency: 'krw' })));
    expect(e).toBeInstanceOf(PaymentProviderError);
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses an incomplete configuration at once', () => {
    expect(() => createPaddleProvider({ apiKey: '', webhookSecret: WEBHOOK_SECRET, baseUrl: fake.origin, prices: PADDLE_TEST_PRICES })).toThrow(PaymentProviderError);
    expect(() => createPaddleProvider({ apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET, baseUrl: fake.origin, prices: { ...PADDLE_TEST_PRICES, premium: undefined } })).toThrow(/premium/);
  });
});

describe('orders and invoices', () => {
  it('a won pack paid with Kakao Pay: paid, ₩ in minor units, method kakao_pay; an approved refund makes it refunded', async () => {
    const { providerCheckoutId: txn } = await paddle.createCheckout(checkout({ kind: 'pack', pack: 'package3' }, { currency: 'krw' }));
    expect((await paddle.getOrder(txn)).status).toBe('pending');
    fake.completeCheckout(txn, { method: 'kakao_pay' });
    const order = await paddle.getOrder(txn);
    expect(order).toMatchObject({ id: txn, userId: 42, pack: 'package3', status: 'paid', amountMinor: 21000, refundedMinor: 0, currency: 'krw', method: 'kakao_pay', receiptUrl: null });

    const adj = fake.refund(txn, { pending: true });
    expect(await paddle.getOrder(txn)).toMatchObject({ status: 'paid', refundedMinor: 0 }); // not approved yet: no money moved
    fake.approveAdjustment(adj);
    expect(await paddle.getOrder(txn)).toMatchObject({ status: 'refunded', refundedMinor: 21000 });
    expect(fake.requestsTo('GET', '/adjustments').at(-1)?.query).toMatchObject({ transaction_id: txn, action: 'refund' });
  });

  it('a subscription transaction is not an order, and a pack transaction is not an invoice', async () => {
    const { transactionId } = await subscribe('basic');
    expect(await rejection(paddle.getOrder(transactionId))).toBeInstanceOf(PaymentProviderError);
    const { providerCheckoutId } = await paddle.createCheckout(checkout({ kind: 'pack', pack: 'package1' }));
    expect(await rejection(paddle.getInvoice(providerCheckoutId))).toBeInstanceOf(PaymentProviderError);
  });

  it('the first invoice of a plan: initial, the period of the subscription, paid with a Korean local card', async () => {
    const req = checkout({ kind: 'plan', plan: 'deluxe' }, { currency: 'krw' });
    const { providerCheckoutId: txn } = await paddle.createCheckout(req);
    const done = fake.completeCheckout(txn, { method: 'south_korea_local_card' });
    const inv = await paddle.getInvoice(txn);
    const sub = await paddle.getSubscription(done.subscriptionId!);
    expect(inv).toMatchObject({ subscriptionId: done.subscriptionId, userId: 42, status: 'paid', reason: 'initial', plan: 'deluxe', amountMinor: 26600, currency: 'krw', method: 'kr_card', proration: null });
    expect(inv.periodStart).toEqual(sub.currentPeriodStart);
    expect(inv.periodEnd).toEqual(sub.currentPeriodEnd);
  });

  it('renewal (paid, then declined → failed) and the update-payment link of the past-due transaction', async () => {
    const { subscriptionId } = await subscribe('basic', { method: 'naver_pay' });
    const renewal = fake.renew(subscriptionId)!;
    expect(await paddle.getInvoice(renewal)).toMatchObject({ reason: 'renewal', status: 'paid', method: 'naver_pay', amountMinor: 900 });
    const failed = fake.failRenewal(subscriptionId)!;
    expect(await paddle.getInvoice(failed)).toMatchObject({ reason: 'renewal', status: 'failed' });
    expect((await paddle.getSubscription(subscriptionId)).status).toBe('past_due');
    expect(await paddle.updatePaymentUrl(subscriptionId)).toBe(fake.object(failed).checkout && (fake.object(failed).checkout as { url: string }).url);
  });
});

describe('subscriptions', () => {
  it('maps status, plan, period, currency and our user id', async () => {
    const { subscriptionId } = await subscribe('premium', { currency: 'krw' });
    const raw = fake.object(subscriptionId) as { current_billing_period: { starts_at: string; ends_at: string } };
    expect(await paddle.getSubscription(subscriptionId)).toEqual({
      id: subscriptionId, userId: 42, plan: 'premium', nextPlan: null, status: 'active',
      currentPeriodStart: new Date(raw.current_billing_period.starts_at), currentPeriodEnd: new Date(raw.current_billing_period.ends_at),
      cancelAtPeriodEnd: false, endedAt: null, createdAt: expect.any(Date), currency: 'krw',
    });
  });

  it('cancel schedules scheduled_change.action=cancel at the period end; resume removes it; cancelNow ends it (then a no-op)', async () => {
    const { subscriptionId } = await subscribe('basic');
    const cancelled = await paddle.cancel(subscriptionId);
    expect(fake.requestsTo('POST', `/subscriptions/${subscriptionId}/cancel`)[0]?.body).toEqual({ effective_from: 'next_billing_period' });
    expect(cancelled).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect((fake.object(subscriptionId).scheduled_change as { action: string }).action).toBe('cancel');

    const resumed = await paddle.resume(subscriptionId);
    expect(fake.requestsTo('PATCH', `/subscriptions/${subscriptionId}`).at(-1)?.body).toEqual({ scheduled_change: null });
    expect(resumed.cancelAtPeriodEnd).toBe(false);

    await paddle.cancelNow(subscriptionId);
    expect(fake.requestsTo('POST', `/subscriptions/${subscriptionId}/cancel`).at(-1)?.body).toEqual({ effective_from: 'immediately' });
    const ended = await paddle.getSubscription(subscriptionId);
    expect(ended.status).toBe('expired');
    expect(ended.endedAt).toBeInstanceOf(Date);
    fake.requests.length = 0;
    await paddle.cancelNow(subscriptionId);
    expect(fake.requestsTo('POST', /cancel$/)).toHaveLength(0);
  });

  it('upgrade now: prorated_immediately; its transaction is an upgrade invoice whose proration is Paddle\'s rate', async () => {
    const { subscriptionId } = await subscribe('basic', { currency: 'krw', method: 'kakao_pay' });
    fake.advanceClock(15 * 86_400); // half of the fake's 30-day period
    const after = await paddle.changePlan(subscriptionId, 'premium', 'now');
    expect(fake.requestsTo('PATCH', `/subscriptions/${subscriptionId}`)[0]?.body).toEqual({ items: [{ price_id: PADDLE_TEST_PRICES_KRW.premium, quantity: 1 }], proration_billing_mode: 'prorated_immediately' });
    expect(after).toMatchObject({ plan: 'premium', nextPlan: null });
    const upgradeTx = fake.transactionsOf(subscriptionId).at(-1)!;
    const rate = Number((fake.object(upgradeTx).items as Array<{ proration: { rate: string } }>)[0]!.proration.rate);
    expect(rate).toBeGreaterThan(0.49);
    expect(rate).toBeLessThan(0.51);
    const inv = await paddle.getInvoice(upgradeTx);
    expect(inv).toMatchObject({ reason: 'upgrade', plan: 'premium', status: 'paid', currency: 'krw', method: 'kakao_pay', proration: { fraction: rate } });
    expect(inv.amountMinor).toBe(Math.round(40600 * rate) - Math.round(12600 * rate));
  });

  it('downgrade next cycle: do_not_bill with the period marked; the period keeps its plan, the renewal bills the new one', async () => {
    const { subscriptionId } = await subscribe('premium');
    const down = await paddle.changePlan(subscriptionId, 'basic', 'next_cycle');
    const sent = fake.requestsTo('PATCH', `/subscriptions/${subscriptionId}`)[0]?.body as Record<string, unknown>;
    const period = (fake.object(subscriptionId) as { current_billing_period: { starts_at: string } }).current_billing_period;
    expect(sent).toEqual({
      items: [{ price_id: PADDLE_TEST_PRICES.basic, quantity: 1 }],
      proration_billing_mode: 'do_not_bill',
      custom_data: expect.objectContaining({ user_id: '42', dewy_period_price: PADDLE_TEST_PRICES.premium, dewy_period_start: period.starts_at }),
    });
    expect(down).toMatchObject({ plan: 'premium', nextPlan: 'basic' });
    expect(fake.transactionsOf(subscriptionId)).toHaveLength(1); // nothing billed now

    // Another lower plan keeps the period's price in the marker.
    expect(await paddle.changePlan(subscriptionId, 'deluxe', 'next_cycle')).toMatchObject({ plan: 'premium', nextPlan: 'deluxe' });
    const renewal = fake.renew(subscriptionId)!;
    expect(await paddle.getInvoice(renewal)).toMatchObject({ plan: 'deluxe', reason: 'renewal', amountMinor: 1900 });
    expect(await paddle.getSubscription(subscriptionId)).toMatchObject({ plan: 'deluxe', nextPlan: null });
  });

  it('withdrawing a downgrade puts the period\'s price back without billing; an upgrade over a pending downgrade is prorated from the period\'s plan', async () => {
    const { subscriptionId } = await subscribe('deluxe');
    await paddle.changePlan(subscriptionId, 'basic', 'next_cycle');
    const back = await paddle.withdrawScheduledChange(subscriptionId, 'deluxe');
    expect(back).toMatchObject({ plan: 'deluxe', nextPlan: null });
    const withdraw = fake.requestsTo('PATCH', `/subscriptions/${subscriptionId}`).at(-1)?.body as { items: unknown; proration_billing_mode: string; custom_data: Record<string, unknown> };
    expect(withdraw.items).toEqual([{ price_id: PADDLE_TEST_PRICES.deluxe, quantity: 1 }]);
    expect(withdraw.proration_billing_mode).toBe('do_not_bill');
    expect(withdraw.custom_data).not.toHaveProperty('dewy_period_price');
    fake.requests.length = 0;
    expect(await paddle.withdrawScheduledChange(subscriptionId, 'deluxe')).toMatchObject({ plan: 'deluxe', nextPlan: null });
    expect(fake.requestsTo('PATCH', /subscriptions/)).toHaveLength(0); // nothing pending: a no-op

    await paddle.changePlan(subscriptionId, 'basic', 'next_cycle');
    fake.requests.length = 0;
    await paddle.changePlan(subscriptionId, 'premium', 'now');
    const patches = fake.requestsTo('PATCH', `/subscriptions/${subscriptionId}`).map((r) => r.body as { items: Array<{ price_id: string }>; proration_billing_mode: string });
    expect(patches.map((p) => [p.items[0]!.price_id, p.proration_billing_mode])).toEqual([
      [PADDLE_TEST_PRICES.deluxe, 'do_not_bill'],
      [PADDLE_TEST_PRICES.premium, 'prorated_immediately'],
    ]);
    const upgrade = fake.object(fake.transactionsOf(subscriptionId).at(-1)!) as { items: Array<{ price_id: string; quantity: number }> };
    expect(upgrade.items.map((i) => [i.price_id, i.quantity])).toEqual([[PADDLE_TEST_PRICES.premium, 1], [PADDLE_TEST_PRICES.deluxe, -1]]);
  });

  it('a plan change removes a scheduled cancel first', async () => {
    const { subscriptionId } = await subscribe('basic');
    await paddle.cancel(subscriptionId);
    fake.requests.length = 0;
    const after = await paddle.changePlan(subscriptionId, 'deluxe', 'now');
    expect(fake.requestsTo('PATCH', `/subscriptions/${subscriptionId}`)[0]?.body).toEqual({ scheduled_change: null });
    expect(after).toMatchObject({ plan: 'deluxe', cancelAtPeriodEnd: false });
  });

  it('refundInvoice: a full refund adjustment, once (a pending refund is not asked for again)', async () => {
    const { transactionId } = await subscribe('basic');
    await paddle.refundInvoice(transactionId);
    expect(fake.requestsTo('POST', '/adjustments').map((r) => r.body)).toEqual([{ action: 'refund', type: 'full', transaction_id: transactionId, reason: 'Duplicate subscription refused by Dewy' }]);
    await paddle.refundInvoice(transactionId);
    expect(fake.requestsTo('POST', '/adjustments')).toHaveLength(1);
  });
});

describe('errors', () => {
  it('a refused key: PaymentProviderError 403 naming Paddle\'s code, never the key', async () => {
    const bad = provider({ apiKey: 'pdl_sdbx_apikey_01wrongkeywrongkeywrongkey0001' });
    const e = await rejection(bad.getSubscription('sub_01abcdefghijklmnopqrstuvwx'));
    expect(e).toBeInstanceOf(PaymentProviderError);
    expect((e as PaymentProviderError).status).toBe(403);
    expect((e as Error).message).toContain('invalid_token');
    expect((e as Error).message).not.toContain('wrongkey');
  });

  it('a 5xx keeps its status; an unknown object is a 404; an unreachable host or a timeout has none', async () => {
    fake.failNext(503, 'service_unavailable', 'try later');
    const e5 = await rejection(paddle.getOrder('txn_01abcdefghijklmnopqrstuvwx'));
    expect((e5 as PaymentProviderError).status).toBe(503);
    expect((await rejection(paddle.getOrder('txn_01abcdefghijklmnopqrstuvwx')) as PaymentProviderError).status).toBe(404);
    const down = provider({ baseUrl: 'http://127.0.0.1:9' });
    const e = await rejection(down.getSubscription('sub_01abcdefghijklmnopqrstuvwx'));
    expect(e).toBeInstanceOf(PaymentProviderError);
    expect((e as PaymentProviderError).status).toBeUndefined();
    expect((e as Error).message).not.toContain(API_KEY);
  });
});

describe('timeouts', () => {
  it('a request that gets no answer in time fails with "timed out" and no status', async () => {
    const hanging = createServer(() => {}); // accepts, never answers
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const slow = provider({ baseUrl: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`, timeoutMs: 200 });
      const e = await rejection(slow.getSubscription('sub_01abcdefghijklmnopqrstuvwx'));
      expect(e).toBeInstanceOf(PaymentProviderError);
      expect((e as Error).message).toMatch(/timed out after 200 ms/);
      expect((e as PaymentProviderError).status).toBeUndefined();
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});

describe('payment methods', () => {
  it('maps Paddle method types to ours; unknown ones stay as Paddle wrote them', () => {
    expect(paymentMethodOf('card')).toBe('card');
    expect(paymentMethodOf('kakao_pay')).toBe('kakao_pay');
    expect(paymentMethodOf('naver_pay')).toBe('naver_pay');
    expect(paymentMethodOf('samsung_pay')).toBe('samsung_pay');
    expect(paymentMethodOf('payco')).toBe('payco');
    expect(paymentMethodOf('south_korea_local_card')).toBe('kr_card');
    expect(paymentMethodOf('korea_local', 'kakaopay')).toBe('kakao_pay');
    expect(paymentMethodOf('korea_local', 'naverpaypoint')).toBe('naver_pay');
    expect(paymentMethodOf('korea_local', 'naverpaycard')).toBe('naver_pay');
    expect(paymentMethodOf('korea_local', 'samsungpay')).toBe('samsung_pay');
    expect(paymentMethodOf('korea_local', 'payco')).toBe('payco');
    expect(paymentMethodOf('korea_local', 'shinhan')).toBe('kr_card');
    expect(paymentMethodOf('apple_pay')).toBe('apple_pay');
    expect(paymentMethodOf('blik')).toBe('blik');
  });
});

describe('parseWebhook', () => {
  const tx = (over: Record<string, unknown> = {}) => ({ id: 'txn_01abcdefghijklmnopqrstuvwx', origin: 'web', subscription_id: null, items: [{ price: { id: PADDLE_TEST_PRICES.package1 }, quantity: 1 }], custom_data: { user_id: '5', checkout_id: 'chk-1' }, ...over });
  const parse = (p: PaymentsProvider, ev: { body: Buffer; headers: Record<string, string> }) => p.parseWebhook(ev.body, ev.headers);

  it('names the object to re-read, with the event id as key and our ids from custom_data', async () => {
    const ev = fake.signedEvent('transaction.completed', tx());
    expect(await parse(paddle, ev)).toEqual({ key: ev.id, type: 'transaction.completed', object: { kind: 'order', id: 'txn_01abcdefghijklmnopqrstuvwx' }, userId: 5, checkoutId: 'chk-1' });
    const ofSub = fake.signedEvent('transaction.paid', tx({ subscription_id: 'sub_01abcdefghijklmnopqrstuvwx', origin: 'subscription_recurring' }));
    expect((await parse(paddle, ofSub)).object).toEqual({ kind: 'invoice', id: 'txn_01abcdefghijklmnopqrstuvwx' });
    const sub = fake.signedEvent('subscription.updated', { id: 'sub_01abcdefghijklmnopqrstuvwx', custom_data: { user_id: '5' } });
    expect(await parse(paddle, sub)).toMatchObject({ object: { kind: 'subscription', id: 'sub_01abcdefghijklmnopqrstuvwx' }, userId: 5, checkoutId: null });
    const adj = fake.signedEvent('adjustment.updated', { id: 'adj_01abcdefghijklmnopqrstuvwx', action: 'refund', transaction_id: 'txn_01abcdefghijklmnopqrstuvwx', subscription_id: 'sub_01abcdefghijklmnopqrstuvwx' });
    expect((await parse(paddle, adj)).object).toEqual({ kind: 'invoice', id: 'txn_01abcdefghijklmnopqrstuvwx' });
    const adjOrder = fake.signedEvent('adjustment.created', { id: 'adj_01abcdefghijklmnopqrstuvwx', action: 'refund', transaction_id: 'txn_01abcdefghijklmnopqrstuvwx', subscription_id: null });
    expect((await parse(paddle, adjOrder)).object).toEqual({ kind: 'order', id: 'txn_01abcdefghijklmnopqrstuvwx' });
  });

  it('acknowledges without an object: payment-method updates, a declined attempt at a plan\'s checkout, other events', async () => {
    expect((await parse(paddle, fake.signedEvent('transaction.completed', tx({ subscription_id: 'sub_01abcdefghijklmnopqrstuvwx', origin: 'subscription_payment_method_change' })))).object).toBeNull();
    const planTx = tx({ items: [{ price: { id: PADDLE_TEST_PRICES.basic }, quantity: 1 }] });
    expect((await parse(paddle, fake.signedEvent('transaction.payment_failed', planTx))).object).toBeNull();
    // Paid before Paddle linked its subscription: re-read as an invoice, which getInvoice refuses until the link exists (Paddle retries).
    expect((await parse(paddle, fake.signedEvent('transaction.paid', planTx))).object).toEqual({ kind: 'invoice', id: planTx.id });
    expect((await parse(paddle, fake.signedEvent('customer.updated', { id: 'ctm_01abcdefghijklmnopqrstuvwx' })))).toMatchObject({ object: null, type: 'customer.updated' });
  });

  it('the same delivery parsed again has the same key (the billing service records it once)', async () => {
    const ev = fake.signedEvent('transaction.completed', tx());
    expect((await parse(paddle, ev)).key).toBe((await parse(paddle, ev)).key);
  });

  it('refuses a missing, malformed, forged or wrongly keyed signature', async () => {
    const ev = fake.signedEvent('transaction.completed', tx());
    await expect(paddle.parseWebhook(ev.body, {})).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(paddle.parseWebhook(ev.body, { 'paddle-signature': 'h1=abc' })).rejects.toBeInstanceOf(WebhookSignatureError);
    const forged = Buffer.from(ev.body.toString('utf8').replace('"user_id":"5"', '"user_id":"6"'));
    await expect(paddle.parseWebhook(forged, ev.headers)).rejects.toBeInstanceOf(WebhookSignatureError);
    const wrongSecret = fake.signedEvent('transaction.completed', tx(), { secrets: ['pdl_ntfset_someone_else'] });
    await expect(parse(paddle, wrongSecret)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it(`refuses a signature more than ${PADDLE_WEBHOOK_TOLERANCE_SECONDS} s from our clock, either way; accepts one a minute old`, async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(parse(paddle, fake.signedEvent('transaction.completed', tx(), { timestamp: now - PADDLE_WEBHOOK_TOLERANCE_SECONDS - 5 }))).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(parse(paddle, fake.signedEvent('transaction.completed', tx(), { timestamp: now + PADDLE_WEBHOOK_TOLERANCE_SECONDS + 5 }))).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(parse(paddle, fake.signedEvent('transaction.completed', tx(), { timestamp: now - 60 }))).resolves.toMatchObject({ type: 'transaction.completed' });
    // Measured on the adapter's clock: a delivery replayed an hour later is stale.
    const ev = fake.signedEvent('transaction.completed', tx());
    await expect(parse(provider({ now: () => Date.now() + 3_600_000 }), ev)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('accepts either h1 while the secret is rotated (the old and the new secret both sign)', async () => {
    const rotated = fake.signedEvent('transaction.completed', tx(), { secrets: ['pdl_ntfset_the_old_secret', WEBHOOK_SECRET] });
    expect(rotated.headers['paddle-signature']).toMatch(/^ts=\d+;h1=[0-9a-f]{64};h1=[0-9a-f]{64}$/);
    await expect(parse(paddle, rotated)).resolves.toMatchObject({ key: rotated.id });
    const bothWrong = fake.signedEvent('transaction.completed', tx(), { secrets: ['pdl_ntfset_the_old_secret', 'pdl_ntfset_another'] });
    await expect(parse(paddle, bothWrong)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('a signed body that is not a Paddle event is a PaymentProviderError', async () => {
    const body = Buffer.from(JSON.stringify({ hello: 'world' }));
    const ts = Math.floor(Date.now() / 1000);
    const h1 = createHmac('sha256', WEBHOOK_SECRET).update(`${ts}:`).update(body).digest('hex');
    await expect(paddle.parseWebhook(body, { 'Paddle-Signature': `ts=${ts};h1=${h1}` })).rejects.toBeInstanceOf(PaymentProviderError);
  });
});

describe('configuration (PAYMENTS_PROVIDER=paddle)', () => {
  const base = { DATA_DIR: '/tmp/dewy-paddle-config-test', NODE_ENV: 'test', PAYMENTS_PROVIDER: 'paddle' };
  const prices = (prefix: string, ids: Record<string, string>) => Object.fromEntries(Object.entries(ids).map(([k, v]) => [`${prefix}_${k.toUpperCase()}`, v]));
  const complete = { ...base, PADDLE_API_KEY: API_KEY, PADDLE_WEBHOOK_SECRET: WEBHOOK_SECRET, PADDLE_CLIENT_TOKEN: 'test_token', ...prices('PADDLE_PRICE', PADDLE_TEST_PRICES) };
  const log = { warn: () => {} } as never;

  it('names every missing key (API key, webhook secret, client token, each dollar price) and buys nothing', () => {
    const c = loadConfig({ ...base, PADDLE_PRICE_BASIC: 'pri_basic' });
    expect(c.payments).toMatchObject({ provider: 'paddle', configured: false });
    expect(c.payments.missing).toEqual(['PADDLE_API_KEY', 'PADDLE_WEBHOOK_SECRET', 'PADDLE_CLIENT_TOKEN', 'PADDLE_PRICE_DELUXE', 'PADDLE_PRICE_PREMIUM', 'PADDLE_PRICE_PACKAGE1', 'PADDLE_PRICE_PACKAGE2', 'PADDLE_PRICE_PACKAGE3', 'PADDLE_PRICE_PACKAGE4', 'PADDLE_PRICE_PACKAGE5']);
    expect(createPaymentsProvider(c, { database: null as never, secret: 'x', log })).toBeNull();
  });

  it('won prices are all or none; the API origin follows PADDLE_ENVIRONMENT unless PADDLE_BASE_URL is set', () => {
    const partial = loadConfig({ ...complete, PADDLE_PRICE_KRW_BASIC: 'pri_krw_basic' });
    expect(partial.payments.configured).toBe(false);
    expect(partial.payments.missing).toContain('PADDLE_PRICE_KRW_PACKAGE5');
    const c = loadConfig(complete);
    expect(c.payments).toMatchObject({ configured: true, paddle: { environment: 'production', baseUrl: 'https://api.paddle.com', pricesKrw: null, clientToken: 'test_token' } });
    expect(loadConfig({ ...complete, PADDLE_ENVIRONMENT: 'sandbox' }).payments.paddle.baseUrl).toBe('https://sandbox-api.paddle.com');
    expect(loadConfig({ ...complete, PADDLE_BASE_URL: 'http://127.0.0.1:9/' }).payments.paddle.baseUrl).toBe('http://127.0.0.1:9');
    expect(() => loadConfig({ ...complete, PADDLE_ENVIRONMENT: 'live' })).toThrow();
  });

  it('the factory builds the Paddle adapter: won offered with won prices', () => {
    const usd = createPaymentsProvider(loadConfig(complete), { database: null as never, secret: 'x', log });
    expect(usd).toMatchObject({ name: 'paddle', currencies: ['usd'] });
    const both = createPaymentsProvider(loadConfig({ ...complete, ...prices('PADDLE_PRICE_KRW', PADDLE_TEST_PRICES_KRW) }), { database: null as never, secret: 'x', log });
    expect(both?.currencies).toEqual(['usd', 'krw']);
  });
});
