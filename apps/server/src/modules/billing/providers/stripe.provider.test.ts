import type { PackId, PaidPlan } from '@dewy/contracts';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeStripe, FAKE_PAYMENT_METHODS, type FakeStripe } from '../../../../test/fakes/fake-stripe.server';
import type { PaymentsConfig } from '../../../config';
import { PaymentProviderError, WebhookSignatureError, type CheckoutRequest, type PaymentsProvider } from '../payments-provider';
import { createStripeProvider, STRIPE_API_VERSION } from './stripe.provider';

// Contract tests of the Stripe adapter against the fake Stripe API (test/fakes/fake-stripe.server.ts):
// what the adapter sends is asserted at the fake, what it answers against the normalised shapes.

const SECRET_KEY = 'sk_test_51DewyFakeSecretKeyForContractTests0001';
const WEBHOOK_SECRET = 'whsec_dewy_contract_tests';
const PRICES: PaymentsConfig['stripe']['prices'] = {
  basic: 'price_basic',
  deluxe: 'price_deluxe',
  premium: 'price_premium',
  package1: 'price_pack1',
  package2: 'price_pack2',
  package3: 'price_pack3',
  package4: 'price_pack4',
  package5: 'price_pack5',
};
/** The won prices (STRIPE_PRICE_KRW_*); KRW is zero-decimal, so the fake's amounts below are in won. */
const PRICES_KRW: PaymentsConfig['stripe']['prices'] = {
  basic: 'price_basic_krw',
  deluxe: 'price_deluxe_krw',
  premium: 'price_premium_krw',
  package1: 'price_pack1_krw',
  package2: 'price_pack2_krw',
  package3: 'price_pack3_krw',
  package4: 'price_pack4_krw',
  package5: 'price_pack5_krw',
};
const month = { interval: 'month' as const };

let fake: FakeStripe;
let stripe: PaymentsProvider;
/** The same adapter with won prices configured (currencies usd and krw). */
let stripeKrw: PaymentsProvider;

beforeAll(async () => {
  fake = await startFakeStripe({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    prices: {
      price_basic: { amount: 900, recurring: month },
      price_deluxe: { amount: 1900, recurring: month },
      price_premium: { amount: 3900, recurring: month },
      price_pack1: { amount: 500 },
      price_pack2: { amount: 1000 },
      price_pack3: { amount: 2000 },
      price_pack4: { amount: 4000 },
      price_pack5: { amount: 8000 },
      price_legacy: { amount: 1500, recurring: month },
      price_basic_krw: { amount: 12_600, currency: 'krw', recurring: month },
      price_deluxe_krw: { amount: 26_600, currency: 'krw', recurring: month },
      price_premium_krw: { amount: 40_600, currency: 'krw', recurring: month },
      price_pack1_krw: { amount: 7_000, currency: 'krw' },
      price_pack2_krw: { amount: 14_000, currency: 'krw' },
      price_pack3_krw: { amount: 21_000, currency: 'krw' },
      price_pack4_krw: { amount: 28_000, currency: 'krw' },
      price_pack5_krw: { amount: 42_000, currency: 'krw' },
    },
  });
  stripe = createStripeProvider(config());
  stripeKrw = createStripeProvider(config({ pricesKrw: PRICES_KRW, krwMethods: ['card', 'kr_card', 'kakao_pay', 'naver_pay', 'payco', 'samsung_pay'] }));
});

afterAll(async () => {
  await fake?.close();
});

beforeEach(() => {
  fake.requests.length = 0;
});

function config(over: Partial<PaymentsConfig['stripe']> = {}): PaymentsConfig['stripe'] {
  return { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, baseUrl: fake.origin, prices: PRICES, pricesKrw: null, krwMethods: [], ...over };
}

let seq = 0;
function checkout(item: CheckoutRequest['item'], userId = 42): CheckoutRequest {
  seq += 1;
  return { checkoutId: `chk_${seq}`, userId, email: `u${userId}@example.com`, item, currency: 'usd' as const, locale: 'ko' as const, successUrl: 'https://dewy.test/pay/ok', cancelUrl: 'https://dewy.test/pay/cancel' };
}

/** A paid subscription to `plan`, bought through the adapter's checkout. */
async function subscribe(plan: PaidPlan, userId = 42) {
  const req = checkout({ kind: 'plan', plan }, userId);
  const { providerCheckoutId } = await stripe.createCheckout(req);
  const done = fake.completeCheckout(providerCheckoutId);
  return { req, sessionId: providerCheckoutId, subscriptionId: done.subscriptionId as string, invoiceId: done.invoiceId as string };
}

/** A pack purchase through the adapter's checkout (not completed). */
async function buyPack(pack: PackId, userId = 42) {
  const req = checkout({ kind: 'pack', pack }, userId);
  const { providerCheckoutId } = await stripe.createCheckout(req);
  return { req, sessionId: providerCheckoutId };
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
  it('a plan: a subscription-mode session with our ids as metadata, on the pinned API version', async () => {
    const req = checkout({ kind: 'plan', plan: 'deluxe' }, 7);
    const out = await stripe.createCheckout(req);

    const [sent] = fake.requestsTo('POST', '/v1/checkout/sessions');
    expect(sent?.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(sent?.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(sent?.headers['idempotency-key']).toBe(`dewy-checkout-${req.checkoutId}`);
    expect(sent?.body).toEqual({
      mode: 'subscription',
      line_items: [{ price: 'price_deluxe', quantity: '1' }],
      client_reference_id: '7',
      customer_email: 'u7@example.com',
      metadata: { checkout_id: req.checkoutId, user_id: '7', kind: 'plan', item: 'deluxe' },
      subscription_data: { metadata: { user_id: '7', checkout_id: req.checkoutId } },
      success_url: 'https://dewy.test/pay/ok',
      cancel_url: 'https://dewy.test/pay/cancel',
    });
    expect(out.providerCheckoutId).toMatch(/^cs_test_/);
    expect(out.url).toBe(fake.object(out.providerCheckoutId).url);
  });

  it('a pack: a payment-mode session whose payment intent carries our ids', async () => {
    const req = checkout({ kind: 'pack', pack: 'package3' }, 9);
    const out = await stripe.createCheckout(req);

    const [sent] = fake.requestsTo('POST', '/v1/checkout/sessions');
    expect(sent?.body).toEqual({
      mode: 'payment',
      line_items: [{ price: 'price_pack3', quantity: '1' }],
      client_reference_id: '9',
      customer_email: 'u9@example.com',
      metadata: { checkout_id: req.checkoutId, user_id: '9', kind: 'pack', item: 'package3' },
      payment_intent_data: { metadata: { checkout_id: req.checkoutId, user_id: '9', item: 'package3' } },
      success_url: 'https://dewy.test/pay/ok',
      cancel_url: 'https://dewy.test/pay/cancel',
    });
    expect(fake.object(out.providerCheckoutId)).toMatchObject({ mode: 'payment', amount_total: 2000 });
  });

  it('the same checkout id twice answers the same session (idempotency key)', async () => {
    const req = checkout({ kind: 'pack', pack: 'package1' });
    const a = await stripe.createCheckout(req);
    const b = await stripe.createCheckout(req);
    expect(b.providerCheckoutId).toBe(a.providerCheckoutId);
  });
});

describe('getOrder', () => {
  it('pending before payment, paid after, then refunded with the refunded amount', async () => {
    const { sessionId } = await buyPack('package2', 11);
    expect(await stripe.getOrder(sessionId)).toMatchObject({ id: sessionId, status: 'pending', pack: 'package2', userId: 11, amountMinor: 1000, refundedMinor: 0 });

    fake.completeCheckout(sessionId);
    const paid = await stripe.getOrder(sessionId);
    expect(paid).toMatchObject({ status: 'paid', pack: 'package2', userId: 11, amountMinor: 1000, refundedMinor: 0 });
    expect(paid.createdAt).toBeInstanceOf(Date);
    expect(Math.abs(paid.createdAt.getTime() - Date.now())).toBeLessThan(60_000);

    fake.refundOrder(sessionId, 400);
    expect(await stripe.getOrder(sessionId)).toMatchObject({ status: 'refunded', refundedMinor: 400, amountMinor: 1000 });
    fake.refundOrder(sessionId);
    expect(await stripe.getOrder(sessionId)).toMatchObject({ status: 'refunded', refundedMinor: 1000 });
  });

  it('an async payment: pending while processing, failed when declined', async () => {
    const { sessionId } = await buyPack('package1');
    fake.completeCheckout(sessionId, { payment: 'processing' });
    expect((await stripe.getOrder(sessionId)).status).toBe('pending');
    fake.failAsyncPayment(sessionId);
    expect((await stripe.getOrder(sessionId)).status).toBe('failed');
  });

  it('an async payment that succeeds is paid; an expired session is failed', async () => {
    const a = await buyPack('package4');
    fake.completeCheckout(a.sessionId, { payment: 'processing' });
    fake.succeedAsyncPayment(a.sessionId);
    expect(await stripe.getOrder(a.sessionId)).toMatchObject({ status: 'paid', pack: 'package4', amountMinor: 4000 });

    const b = await buyPack('package5');
    fake.expireCheckout(b.sessionId);
    expect((await stripe.getOrder(b.sessionId)).status).toBe('failed');
  });

  it('a subscription session is not an order', async () => {
    const { sessionId } = await subscribe('basic');
    const e = await rejection(stripe.getOrder(sessionId));
    expect(e).toBeInstanceOf(PaymentProviderError);
  });
});

describe('getSubscription', () => {
  it('maps a fresh subscription: plan from the price, user from metadata, period from the item', async () => {
    const { subscriptionId } = await subscribe('deluxe', 5);
    const sub = await stripe.getSubscription(subscriptionId);
    const item = (fake.object(subscriptionId).items as { data: Array<{ current_period_start: number; current_period_end: number }> }).data[0];
    expect(sub).toMatchObject({ id: subscriptionId, userId: 5, plan: 'deluxe', nextPlan: null, status: 'active', cancelAtPeriodEnd: false, endedAt: null });
    expect(sub.currentPeriodStart.getTime()).toBe((item?.current_period_start ?? 0) * 1000);
    expect(sub.currentPeriodEnd.getTime()).toBe((item?.current_period_end ?? 0) * 1000);
    expect(sub.currentPeriodEnd.getTime() - sub.currentPeriodStart.getTime()).toBe(30 * 86_400_000);
  });

  it('canceled → expired with endedAt; a failed renewal → past_due', async () => {
    const a = await subscribe('basic');
    fake.endSubscription(a.subscriptionId);
    const ended = await stripe.getSubscription(a.subscriptionId);
    expect(ended.status).toBe('expired');
    expect(ended.endedAt).toBeInstanceOf(Date);
    expect(ended.cancelAtPeriodEnd).toBe(false);

    const b = await subscribe('basic');
    fake.failRenewal(b.subscriptionId);
    expect((await stripe.getSubscription(b.subscriptionId)).status).toBe('past_due');
  });

  it('a price that is not one of our plans is an error; missing metadata gives a null user', async () => {
    const id = fake.seedSubscription('price_legacy');
    const e = await rejection(stripe.getSubscription(id));
    expect(e).toBeInstanceOf(PaymentProviderError);
    expect((e as Error).message).toContain('price_legacy');

    const plain = fake.seedSubscription('price_premium');
    expect(await stripe.getSubscription(plain)).toMatchObject({ plan: 'premium', userId: null });
  });

  it('an unknown subscription is a PaymentProviderError with status 404', async () => {
    const e = await rejection(stripe.getSubscription('sub_missing'));
    expect(e).toBeInstanceOf(PaymentProviderError);
    expect((e as PaymentProviderError).status).toBe(404);
  });
});

describe('getInvoice', () => {
  it('the first invoice: initial, paid, plan, period, subscription and user', async () => {
    const { subscriptionId, invoiceId } = await subscribe('premium', 21);
    const sub = await stripe.getSubscription(subscriptionId);
    const inv = await stripe.getInvoice(invoiceId);
    expect(inv).toMatchObject({ id: invoiceId, subscriptionId, userId: 21, status: 'paid', reason: 'initial', plan: 'premium', amountMinor: 3900, refundedMinor: 0, proration: null });
    expect(inv.periodStart).toEqual(sub.currentPeriodStart);
    expect(inv.periodEnd).toEqual(sub.currentPeriodEnd);
  });

  it('a renewal: the next period; refunded in part', async () => {
    const { subscriptionId } = await subscribe('basic', 22);
    const before = await stripe.getSubscription(subscriptionId);
    const invoiceId = fake.renew(subscriptionId) as string;
    const inv = await stripe.getInvoice(invoiceId);
    expect(inv).toMatchObject({ status: 'paid', reason: 'renewal', plan: 'basic', userId: 22, amountMinor: 900 });
    expect(inv.periodStart).toEqual(before.currentPeriodEnd);

    fake.refundInvoice(invoiceId, 300);
    expect(await stripe.getInvoice(invoiceId)).toMatchObject({ status: 'refunded', refundedMinor: 300 });
  });

  it('a declined renewal is failed, uncollectible is failed, voided is void', async () => {
    const { subscriptionId } = await subscribe('deluxe');
    const declined = fake.failRenewal(subscriptionId) as string;
    expect(fake.object(declined).status).toBe('open');
    expect(await stripe.getInvoice(declined)).toMatchObject({ status: 'failed', reason: 'renewal', plan: 'deluxe', refundedMinor: 0 });
    fake.markUncollectible(declined);
    expect((await stripe.getInvoice(declined)).status).toBe('failed');

    const other = await subscribe('deluxe');
    const voided = fake.failRenewal(other.subscriptionId) as string;
    fake.voidInvoice(voided);
    expect((await stripe.getInvoice(voided)).status).toBe('void');
  });
});

describe('changePlan', () => {
  it('upgrade: swaps the price with always_invoice and yields an upgrade invoice of the new plan', async () => {
    const { subscriptionId } = await subscribe('basic', 31);
    const itemId = (fake.object(subscriptionId).items as { data: Array<{ id: string }> }).data[0]?.id;
    fake.requests.length = 0;

    const after = await stripe.changePlan(subscriptionId, 'premium', 'now');
    expect(after).toMatchObject({ plan: 'premium', nextPlan: null, cancelAtPeriodEnd: false, status: 'active' });

    const [update] = fake.requestsTo('POST', `/v1/subscriptions/${subscriptionId}`);
    expect(update?.body).toEqual({ items: [{ id: itemId, price: 'price_premium' }], proration_behavior: 'always_invoice', cancel_at_period_end: 'false' });

    const latest = fake.object(subscriptionId).latest_invoice as string;
    const inv = await stripe.getInvoice(latest);
    expect(inv).toMatchObject({ reason: 'upgrade', plan: 'premium', status: 'paid', subscriptionId, userId: 31 });
    expect(inv.amountMinor).toBeGreaterThan(0);
    expect(inv.amountMinor).toBeLessThanOrEqual(3900 - 900);
    expect(inv.periodEnd).toEqual(after.currentPeriodEnd);
    // Right after the purchase nearly the whole period is left: the proration line's period says so.
    expect(inv.proration).toEqual({ fraction: expect.closeTo(1, 4) as number });
  });

  it('downgrade: a schedule from the subscription, the new price from the next period', async () => {
    const { subscriptionId } = await subscribe('deluxe', 32);
    const before = await stripe.getSubscription(subscriptionId);
    fake.requests.length = 0;

    const after = await stripe.changePlan(subscriptionId, 'basic', 'next_cycle');
    expect(after).toMatchObject({ plan: 'deluxe', nextPlan: 'basic', cancelAtPeriodEnd: false, status: 'active' });

    const [created] = fake.requestsTo('POST', '/v1/subscription_schedules');
    expect(created?.body).toEqual({ from_subscription: subscriptionId });
    const scheduleId = fake.object(subscriptionId).schedule as string;
    const [update] = fake.requestsTo('POST', `/v1/subscription_schedules/${scheduleId}`);
    const start = String(before.currentPeriodStart.getTime() / 1000);
    const end = String(before.currentPeriodEnd.getTime() / 1000);
    expect(update?.body).toMatchObject({
      end_behavior: 'release',
      phases: [
        { items: [{ price: 'price_deluxe', quantity: '1' }], start_date: start, end_date: end },
        { items: [{ price: 'price_basic', quantity: '1' }], duration: { interval: 'month', interval_count: '1' } },
      ],
    });
    expect(fake.requestsTo('POST', `/v1/subscriptions/${subscriptionId}`)).toHaveLength(0);

    // The next renewal bills the new plan; the one after releases the schedule.
    const renewal = fake.renew(subscriptionId) as string;
    expect(await stripe.getInvoice(renewal)).toMatchObject({ plan: 'basic', reason: 'renewal', amountMinor: 900 });
    expect(await stripe.getSubscription(subscriptionId)).toMatchObject({ plan: 'basic', nextPlan: null });
    fake.renew(subscriptionId);
    expect(fake.object(scheduleId).status).toBe('released');
    expect(await stripe.getSubscription(subscriptionId)).toMatchObject({ plan: 'basic', nextPlan: null, status: 'active' });
  });

  it('a second downgrade reuses the schedule; choosing the current plan drops the pending one', async () => {
    const { subscriptionId } = await subscribe('premium');
    await stripe.changePlan(subscriptionId, 'deluxe', 'next_cycle');
    const scheduleId = fake.object(subscriptionId).schedule as string;
    expect((await stripe.changePlan(subscriptionId, 'basic', 'next_cycle')).nextPlan).toBe('basic');
    expect(fake.object(subscriptionId).schedule).toBe(scheduleId);

    const kept = await stripe.changePlan(subscriptionId, 'premium', 'next_cycle');
    expect(kept).toMatchObject({ plan: 'premium', nextPlan: null });
    expect(fake.object(scheduleId).status).toBe('released');
  });

  it('a schedule whose next phase keeps the price (set outside Dewy) reports no next plan', async () => {
    const { subscriptionId } = await subscribe('deluxe');
    const before = await stripe.getSubscription(subscriptionId);
    const { port } = new URL(fake.origin);
    const direct = new Stripe(SECRET_KEY, { host: '127.0.0.1', port, protocol: 'http' });
    const schedule = await direct.subscriptionSchedules.create({ from_subscription: subscriptionId });
    const start = before.currentPeriodStart.getTime() / 1000;
    const end = before.currentPeriodEnd.getTime() / 1000;
    await direct.subscriptionSchedules.update(schedule.id, {
      phases: [
        { items: [{ price: 'price_deluxe' }], start_date: start, end_date: end },
        { items: [{ price: 'price_deluxe' }], duration: { interval: 'month', interval_count: 1 } },
      ],
    });
    expect(await stripe.getSubscription(subscriptionId)).toMatchObject({ plan: 'deluxe', nextPlan: null });
  });

  it('an upgrade with a pending downgrade releases the schedule before updating', async () => {
    const { subscriptionId } = await subscribe('deluxe');
    await stripe.changePlan(subscriptionId, 'basic', 'next_cycle');
    const scheduleId = fake.object(subscriptionId).schedule as string;
    fake.requests.length = 0;

    const after = await stripe.changePlan(subscriptionId, 'premium', 'now');
    expect(after).toMatchObject({ plan: 'premium', nextPlan: null });
    const writes = fake.requests.filter((r) => r.method === 'POST').map((r) => r.path);
    expect(writes).toEqual([`/v1/subscription_schedules/${scheduleId}/release`, `/v1/subscriptions/${subscriptionId}`]);
  });

  it('a downgrade clears a scheduled cancellation', async () => {
    const { subscriptionId } = await subscribe('premium');
    expect((await stripe.cancel(subscriptionId)).cancelAtPeriodEnd).toBe(true);
    const after = await stripe.changePlan(subscriptionId, 'basic', 'next_cycle');
    expect(after).toMatchObject({ cancelAtPeriodEnd: false, plan: 'premium', nextPlan: 'basic' });
    expect(fake.object(fake.object(subscriptionId).schedule as string).end_behavior).toBe('release');
  });
});

describe('cancel / resume', () => {
  it('cancel sets cancel_at_period_end, resume clears it; an uncancelled subscription renews', async () => {
    const { subscriptionId } = await subscribe('basic');
    const cancelled = await stripe.cancel(subscriptionId);
    expect(cancelled).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' });
    expect(fake.requestsTo('POST', `/v1/subscriptions/${subscriptionId}`).map((r) => r.body)).toEqual([{ cancel_at_period_end: 'true' }]);

    fake.requests.length = 0;
    const resumed = await stripe.resume(subscriptionId);
    expect(resumed.cancelAtPeriodEnd).toBe(false);
    expect(fake.requestsTo('POST', `/v1/subscriptions/${subscriptionId}`).map((r) => r.body)).toEqual([{ cancel_at_period_end: 'false' }]);
    expect(fake.renew(subscriptionId)).not.toBeNull();
  });

  it('a cancelled subscription ends at the period end', async () => {
    const { subscriptionId } = await subscribe('basic');
    const cancelled = await stripe.cancel(subscriptionId);
    expect(fake.renew(subscriptionId)).toBeNull();
    const ended = await stripe.getSubscription(subscriptionId);
    expect(ended).toMatchObject({ status: 'expired', cancelAtPeriodEnd: false });
    expect(ended.endedAt).toEqual(cancelled.currentPeriodEnd);
  });

  it('cancel with a pending downgrade releases the schedule first (Stripe refuses it otherwise)', async () => {
    const { subscriptionId } = await subscribe('deluxe');
    await stripe.changePlan(subscriptionId, 'basic', 'next_cycle');
    const scheduleId = fake.object(subscriptionId).schedule as string;
    fake.requests.length = 0;

    const cancelled = await stripe.cancel(subscriptionId);
    expect(cancelled).toMatchObject({ cancelAtPeriodEnd: true, nextPlan: null, plan: 'deluxe' });
    expect(fake.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([`/v1/subscription_schedules/${scheduleId}/release`, `/v1/subscriptions/${subscriptionId}`]);
  });
});

describe('parseWebhook', () => {
  it('a valid invoice event: key, type, object, user and checkout from the subscription metadata', async () => {
    const { invoiceId, req } = await subscribe('basic', 41);
    const ev = fake.signedEvent('invoice.paid', fake.object(invoiceId));
    expect(await stripe.parseWebhook(ev.body, ev.headers)).toEqual({ key: ev.id, type: 'invoice.paid', object: { kind: 'invoice', id: invoiceId }, userId: 41, checkoutId: req.checkoutId });
  });

  it('checkout.session.completed names the order or the subscription, with our checkout id', async () => {
    const pack = await buyPack('package1', 43);
    fake.completeCheckout(pack.sessionId);
    const a = fake.signedEvent('checkout.session.completed', fake.object(pack.sessionId));
    expect(await stripe.parseWebhook(a.body, a.headers)).toMatchObject({ object: { kind: 'order', id: pack.sessionId }, userId: 43, checkoutId: pack.req.checkoutId });

    const plan = await subscribe('deluxe', 44);
    const b = fake.signedEvent('checkout.session.completed', fake.object(plan.sessionId));
    expect(await stripe.parseWebhook(b.body, b.headers)).toMatchObject({ object: { kind: 'subscription', id: plan.subscriptionId }, userId: 44, checkoutId: plan.req.checkoutId });
  });

  it('subscription events name the subscription; other events name nothing', async () => {
    const { subscriptionId, req } = await subscribe('basic', 45);
    const a = fake.signedEvent('customer.subscription.updated', fake.object(subscriptionId));
    expect(await stripe.parseWebhook(a.body, a.headers)).toMatchObject({ type: 'customer.subscription.updated', object: { kind: 'subscription', id: subscriptionId }, userId: 45, checkoutId: req.checkoutId });

    const b = fake.signedEvent('customer.created', { id: 'cus_1', object: 'customer', metadata: {} });
    expect(await stripe.parseWebhook(b.body, b.headers)).toEqual({ key: b.id, type: 'customer.created', object: null, userId: null, checkoutId: null });
  });

  it('charge.refunded resolves to the pack order or to the invoice it paid', async () => {
    const pack = await buyPack('package2', 46);
    fake.completeCheckout(pack.sessionId);
    const charge = fake.refundOrder(pack.sessionId);
    const a = fake.signedEvent('charge.refunded', charge);
    expect(await stripe.parseWebhook(a.body, a.headers)).toMatchObject({ type: 'charge.refunded', object: { kind: 'order', id: pack.sessionId }, userId: 46, checkoutId: pack.req.checkoutId });
    const lookup = fake.requestsTo('GET', '/v1/checkout/sessions')[0];
    expect(lookup?.query).toMatchObject({ payment_intent: charge.payment_intent });

    const { invoiceId } = await subscribe('basic');
    const b = fake.signedEvent('charge.refunded', fake.refundInvoice(invoiceId, 100));
    expect((await stripe.parseWebhook(b.body, b.headers)).object).toEqual({ kind: 'invoice', id: invoiceId });
  });

  it('refuses a forged signature, a body altered by one byte, a missing header and a stale timestamp', async () => {
    const { invoiceId } = await subscribe('basic');
    const object = fake.object(invoiceId);

    const forged = fake.signedEvent('invoice.paid', object, { secret: 'whsec_not_ours' });
    await expect(stripe.parseWebhook(forged.body, forged.headers)).rejects.toBeInstanceOf(WebhookSignatureError);

    const good = fake.signedEvent('invoice.paid', object);
    const altered = Buffer.from(good.body);
    const at = altered.indexOf('"invoice.paid"') + 1;
    altered[at] = 'I'.charCodeAt(0);
    await expect(stripe.parseWebhook(altered, good.headers)).rejects.toBeInstanceOf(WebhookSignatureError);

    await expect(stripe.parseWebhook(good.body, {})).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(stripe.parseWebhook(good.body, { 'stripe-signature': '' })).rejects.toBeInstanceOf(WebhookSignatureError);

    const stale = fake.signedEvent('invoice.paid', object, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    await expect(stripe.parseWebhook(stale.body, stale.headers)).rejects.toBeInstanceOf(WebhookSignatureError);
    // Inside the 300 s tolerance it verifies: the refusals above are the signature's, not the setup's.
    const recent = fake.signedEvent('invoice.paid', object, { timestamp: Math.floor(Date.now() / 1000) - 240 });
    expect((await stripe.parseWebhook(recent.body, recent.headers)).key).toBe(recent.id);
    expect((await stripe.parseWebhook(good.body, good.headers)).key).toBe(good.id);
  });
});

describe('errors', () => {
  it('a refused key is a 401 PaymentProviderError that does not carry the key', async () => {
    const wrongKey = 'sk_test_51WrongKeyWrongKeyWrongKeyWrongKey9999';
    const bad = createStripeProvider(config({ secretKey: wrongKey }));
    const e = await rejection(bad.getSubscription('sub_x'));
    expect(e).toBeInstanceOf(PaymentProviderError);
    expect((e as PaymentProviderError).status).toBe(401);
    expect((e as Error).message).not.toContain(wrongKey);
    expect((e as Error).message).not.toMatch(/sk_test_51/);
  });

  it('a server error keeps its status; an unreachable server has none; neither leaks the key', async () => {
    // A gateway that echoes the request's credentials back must not get them into our logs.
    fake.failNext(502, 'api_error', `bad gateway (Authorization: Bearer ${SECRET_KEY})`);
    const e = await rejection(stripe.createCheckout(checkout({ kind: 'plan', plan: 'basic' })));
    expect(e).toBeInstanceOf(PaymentProviderError);
    expect((e as PaymentProviderError).status).toBe(502);
    expect((e as Error).message).toContain('bad gateway');
    expect((e as Error).message).not.toContain(SECRET_KEY);

    const down = createStripeProvider(config({ baseUrl: 'http://127.0.0.1:1' }));
    const n = await rejection(down.getInvoice('in_x'));
    expect(n).toBeInstanceOf(PaymentProviderError);
    expect((n as PaymentProviderError).status).toBeUndefined();
    expect((n as Error).message).not.toContain(SECRET_KEY);
  });
});

/**
 * Issue 25: won prices (STRIPE_PRICE_KRW_*) with the Korean payment methods. Stripe's docs checked:
 * KRW is zero-decimal (amounts in won, https://docs.stripe.com/currencies#zero-decimal); Kakao Pay,
 * Naver Pay and Korean cards can pay a subscription, PAYCO and Samsung Pay cannot ("Subscription mode:
 * No", https://docs.stripe.com/payments/payco/accept-a-payment, …/samsung-pay/accept-a-payment); a
 * charge names its method in `payment_method_details.type`; `allowed_payment_method_types` filters
 * Stripe's dynamic payment methods (changelog 2026-09-30.endive, remove-payment-method-types-checkout-sessions).
 */
describe('won (KRW) with the Korean payment methods', () => {
  const SUBSCRIPTION_METHODS = ['card', 'kr_card', 'kakao_pay', 'naver_pay'];
  const ONE_TIME_METHODS = ['card', 'kr_card', 'kakao_pay', 'naver_pay', 'payco', 'samsung_pay'];

  function wonCheckout(item: CheckoutRequest['item'], userId = 42, locale: 'ko' | 'en' = 'ko'): CheckoutRequest {
    return { ...checkout(item, userId), currency: 'krw', locale };
  }
  async function subscribeKrw(plan: PaidPlan, method: (typeof FAKE_PAYMENT_METHODS)[number], userId = 42) {
    const { providerCheckoutId } = await stripeKrw.createCheckout(wonCheckout({ kind: 'plan', plan }, userId));
    const done = fake.completeCheckout(providerCheckoutId, { method });
    return { sessionId: providerCheckoutId, subscriptionId: done.subscriptionId as string, invoiceId: done.invoiceId as string };
  }
  /** A raw call to the fake, for what the adapter never sends (the fake's refusals). */
  async function rawPost(path: string, form: Record<string, string>) {
    const r = await fetch(`${fake.origin}${path}`, { method: 'POST', headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
    return { status: r.status, body: (await r.json()) as { id?: string; error?: { message: string; param?: string; code?: string }; payment_method_types?: string[] } };
  }
  const subscriptionSession = (methods: string[]) => rawPost('/v1/checkout/sessions', {
    mode: 'subscription', 'line_items[0][price]': 'price_basic_krw', 'line_items[0][quantity]': '1', success_url: 'https://dewy.test/ok',
    ...Object.fromEntries(methods.map((m, i) => [`allowed_payment_method_types[${i}]`, m])),
  });

  it('currencies: usd and krw once won prices are configured, usd alone without', () => {
    expect(stripe.currencies).toEqual(['usd']);
    expect(stripeKrw.currencies).toEqual(['usd', 'krw']);
  });

  it('a plan in won: its won price, the subscription-mode methods (no PAYCO, no Samsung Pay) and the page language', async () => {
    const req = wonCheckout({ kind: 'plan', plan: 'deluxe' }, 7, 'en');
    const out = await stripeKrw.createCheckout(req);
    const [sent] = fake.requestsTo('POST', '/v1/checkout/sessions');
    expect(sent?.body).toEqual({
      mode: 'subscription',
      line_items: [{ price: 'price_deluxe_krw', quantity: '1' }],
      allowed_payment_method_types: SUBSCRIPTION_METHODS,
      locale: 'en',
      client_reference_id: '7',
      customer_email: 'u7@example.com',
      metadata: { checkout_id: req.checkoutId, user_id: '7', kind: 'plan', item: 'deluxe' },
      subscription_data: { metadata: { user_id: '7', checkout_id: req.checkoutId } },
      success_url: 'https://dewy.test/pay/ok',
      cancel_url: 'https://dewy.test/pay/cancel',
    });
    // In won, in won: ₩26,600 is 26600 (zero-decimal), not 2660000.
    expect(fake.object(out.providerCheckoutId)).toMatchObject({
      currency: 'krw', amount_total: 26_600, locale: 'en', allowed_payment_method_types: SUBSCRIPTION_METHODS, payment_method_types: SUBSCRIPTION_METHODS,
    });
  });

  it('a pack in won: every Korean method, PAYCO and Samsung Pay included, in Korean', async () => {
    const out = await stripeKrw.createCheckout(wonCheckout({ kind: 'pack', pack: 'package3' }, 9));
    const [sent] = fake.requestsTo('POST', '/v1/checkout/sessions');
    expect(sent?.body).toMatchObject({ mode: 'payment', line_items: [{ price: 'price_pack3_krw', quantity: '1' }], allowed_payment_method_types: ONE_TIME_METHODS, locale: 'ko' });
    expect(fake.object(out.providerCheckoutId)).toMatchObject({ currency: 'krw', amount_total: 21_000, payment_method_types: ONE_TIME_METHODS });
  });

  it('a dollar session of the same adapter carries no method filter and no locale: Stripe offers what fits dollars', async () => {
    const out = await stripeKrw.createCheckout(checkout({ kind: 'plan', plan: 'basic' }));
    const [sent] = fake.requestsTo('POST', '/v1/checkout/sessions');
    expect(sent?.body).not.toHaveProperty('allowed_payment_method_types');
    expect(sent?.body).not.toHaveProperty('locale');
    expect(sent?.body).toMatchObject({ line_items: [{ price: 'price_basic', quantity: '1' }] });
    expect(fake.object(out.providerCheckoutId)).toMatchObject({ currency: 'usd', amount_total: 900, allowed_payment_method_types: null, payment_method_types: ['card'] });
  });

  it('STRIPE_KRW_PAYMENT_METHODS narrows the methods; PAYCO and Samsung Pay never reach a subscription session', async () => {
    const some = createStripeProvider(config({ pricesKrw: PRICES_KRW, krwMethods: ['kakao_pay', 'payco', 'samsung_pay'] }));
    await some.createCheckout(wonCheckout({ kind: 'plan', plan: 'basic' }));
    await some.createCheckout(wonCheckout({ kind: 'pack', pack: 'package1' }));
    const onlyOneTime = createStripeProvider(config({ pricesKrw: PRICES_KRW, krwMethods: ['payco', 'samsung_pay'] }));
    await onlyOneTime.createCheckout(wonCheckout({ kind: 'plan', plan: 'basic' }));
    expect(fake.requestsTo('POST', '/v1/checkout/sessions').map((r) => r.body.allowed_payment_method_types)).toEqual([['kakao_pay'], ['kakao_pay', 'payco', 'samsung_pay'], ['card']]);
  });

  it('won without won prices is a PaymentProviderError before anything is sent', async () => {
    const e = await rejection(stripe.createCheckout(wonCheckout({ kind: 'pack', pack: 'package1' })));
    expect(e).toBeInstanceOf(PaymentProviderError);
    expect((e as Error).message).toMatch(/KRW price/);
    expect(fake.requests).toHaveLength(0);
  });

  it('a pack paid with Kakao Pay: in won, the method, the charge\'s receipt page; a refund in won', async () => {
    const { providerCheckoutId: id } = await stripeKrw.createCheckout(wonCheckout({ kind: 'pack', pack: 'package2' }, 12));
    expect(await stripeKrw.getOrder(id)).toMatchObject({ status: 'pending', currency: 'krw', amountMinor: 14_000, method: null, receiptUrl: null });
    const done = fake.completeCheckout(id, { method: 'kakao_pay' });
    const charge = fake.object(done.chargeId!) as { currency: string; amount: number; receipt_url: string; payment_method_details: { type: string } };
    expect(charge).toMatchObject({ currency: 'krw', amount: 14_000, payment_method_details: { type: 'kakao_pay' } });
    expect(await stripeKrw.getOrder(id)).toEqual({
      id, userId: 12, pack: 'package2', status: 'paid', amountMinor: 14_000, refundedMinor: 0, createdAt: expect.any(Date) as Date,
      currency: 'krw', method: 'kakao_pay', receiptUrl: charge.receipt_url,
    });
    expect(charge.receipt_url).toMatch(/^http/);
    fake.refundOrder(id, 4_000);
    expect(await stripeKrw.getOrder(id)).toMatchObject({ status: 'refunded', refundedMinor: 4_000, amountMinor: 14_000, currency: 'krw' });
  });

  it('each method is reported as Stripe types it in payment_method_details.type', async () => {
    for (const method of FAKE_PAYMENT_METHODS) {
      const { providerCheckoutId: id } = await stripeKrw.createCheckout(wonCheckout({ kind: 'pack', pack: 'package1' }));
      fake.completeCheckout(id, { method });
      expect(await stripeKrw.getOrder(id)).toMatchObject({ status: 'paid', currency: 'krw', amountMinor: 7_000, method });
    }
  });

  it('a Naver Pay subscription: invoices in won with the method and the hosted invoice page; the renewal charges Naver Pay again', async () => {
    const { subscriptionId, invoiceId } = await subscribeKrw('basic', 'naver_pay', 23);
    expect(await stripeKrw.getSubscription(subscriptionId)).toMatchObject({ plan: 'basic', currency: 'krw', status: 'active', userId: 23 });
    expect(await stripeKrw.getInvoice(invoiceId)).toMatchObject({
      reason: 'initial', status: 'paid', plan: 'basic', amountMinor: 12_600, currency: 'krw', method: 'naver_pay', receiptUrl: fake.object(invoiceId).hosted_invoice_url,
    });
    const renewal = fake.renew(subscriptionId)!;
    expect(await stripeKrw.getInvoice(renewal)).toMatchObject({ reason: 'renewal', status: 'paid', amountMinor: 12_600, currency: 'krw', method: 'naver_pay' });
  });

  it('a downgrade of a won subscription schedules the won price of the smaller plan', async () => {
    const { subscriptionId } = await subscribeKrw('premium', 'kr_card');
    fake.requests.length = 0;
    expect(await stripeKrw.changePlan(subscriptionId, 'basic', 'next_cycle')).toMatchObject({ plan: 'premium', nextPlan: 'basic', currency: 'krw' });
    const scheduleId = fake.object(subscriptionId).schedule as string;
    const [update] = fake.requestsTo('POST', `/v1/subscription_schedules/${scheduleId}`);
    expect(update?.body).toMatchObject({ phases: [{ items: [{ price: 'price_premium_krw' }] }, { items: [{ price: 'price_basic_krw' }] }] });
    const renewal = fake.renew(subscriptionId)!;
    expect(await stripeKrw.getInvoice(renewal)).toMatchObject({ plan: 'basic', amountMinor: 12_600, currency: 'krw', method: 'kr_card' });
  });

  it('the fake refuses what Stripe refuses: no method left for the session, a foreign-currency price on a subscription, payment_method_types', async () => {
    // Nothing a subscription in won can take: refused. A mixed list: the incompatible ones are dropped,
    // as Stripe's allowed_payment_method_types does, and nobody can pay with them.
    const none = await subscriptionSession(['payco', 'samsung_pay']);
    expect(none.status).toBe(400);
    expect(none.body.error?.param).toBe('allowed_payment_method_types');
    const mixed = await subscriptionSession(['card', 'payco']);
    expect(mixed.status).toBe(200);
    expect(mixed.body.payment_method_types).toEqual(['card']);
    expect(() => fake.completeCheckout(mixed.body.id!, { method: 'payco' })).toThrow(/does not offer payco/);
    expect((await subscriptionSession(['unknown_pay'])).status).toBe(400);
    const legacy = await rawPost('/v1/checkout/sessions', { mode: 'payment', 'line_items[0][price]': 'price_pack1_krw', success_url: 'https://dewy.test/ok', 'payment_method_types[0]': 'kakao_pay' });
    expect(legacy.status).toBe(400);
    const mixedCurrencies = await rawPost('/v1/checkout/sessions', { mode: 'payment', 'line_items[0][price]': 'price_pack1_krw', 'line_items[1][price]': 'price_pack1', success_url: 'https://dewy.test/ok' });
    expect(mixedCurrencies.status).toBe(400);
    // A Korean method in dollars is never offered.
    const usd = await rawPost('/v1/checkout/sessions', { mode: 'payment', 'line_items[0][price]': 'price_pack1', success_url: 'https://dewy.test/ok', 'allowed_payment_method_types[0]': 'card', 'allowed_payment_method_types[1]': 'kakao_pay' });
    expect(usd.body.payment_method_types).toEqual(['card']);

    const { subscriptionId } = await subscribeKrw('basic', 'kakao_pay');
    const itemId = (fake.object(subscriptionId).items as { data: Array<{ id: string }> }).data[0]!.id;
    const dollars = await rawPost(`/v1/subscriptions/${subscriptionId}`, { 'items[0][id]': itemId, 'items[0][price]': 'price_premium', proration_behavior: 'always_invoice' });
    expect(dollars.status).toBe(400);
    expect(dollars.body.error?.message).toMatch(/krw/);
  });

  // Last in this file: it moves the fake's clock.
  it('an upgrade of a won subscription uses the won price of the new plan and prorates in won', async () => {
    const { subscriptionId } = await subscribeKrw('basic', 'kakao_pay', 33);
    const itemId = (fake.object(subscriptionId).items as { data: Array<{ id: string }> }).data[0]?.id;
    fake.advanceClock(15 * 86_400);
    fake.requests.length = 0;
    expect(await stripeKrw.changePlan(subscriptionId, 'premium', 'now')).toMatchObject({ plan: 'premium', currency: 'krw' });
    const [update] = fake.requestsTo('POST', `/v1/subscriptions/${subscriptionId}`);
    expect(update?.body).toEqual({ items: [{ id: itemId, price: 'price_premium_krw' }], proration_behavior: 'always_invoice', cancel_at_period_end: 'false' });
    const inv = await stripeKrw.getInvoice(fake.object(subscriptionId).latest_invoice as string);
    expect(inv).toMatchObject({ reason: 'upgrade', plan: 'premium', status: 'paid', currency: 'krw', method: 'kakao_pay', userId: 33 });
    // Half the period left: half of ₩40,600 − ₩12,600, in whole won.
    expect(inv.proration).toEqual({ fraction: expect.closeTo(0.5, 3) as number });
    expect(Math.abs(inv.amountMinor - 14_000)).toBeLessThanOrEqual(2);
  });
});
