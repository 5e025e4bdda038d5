import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PackId, PaidPlan } from '@dewy/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLemonSqueezy, type FakeLemonSqueezy } from '../../../../test/fakes/fake-lemonsqueezy.server';
import type { PaymentsConfig } from '../../../config';
import { PaymentProviderError, WebhookSignatureError, type PaymentsProvider } from '../payments-provider';
import { addMonthsUtc, createLemonSqueezyProvider } from './lemonsqueezy.provider';

const API_KEY = 'ls_test_key_do_not_leak_5f2c';
const STORE_ID = '4242';
const SECRET = 'whsec-lemon-test-123';
const VARIANTS = {
  basic: '101',
  deluxe: '102',
  premium: '103',
  package1: '201',
  package2: '202',
  package3: '203',
  package4: '204',
  package5: '205',
} as const;
const PRICES: Record<string, number> = { '101': 990, '102': 1990, '103': 2990, '201': 500, '202': 1000, '203': 2000, '204': 4000, '205': 8000 };
/** In the store but not in our config. */
const FOREIGN_PACK = '999';
const FOREIGN_PLAN = '998';
const DAY = 86_400_000;

let fake: FakeLemonSqueezy;
let ls: PaymentsProvider;

function config(over: Partial<PaymentsConfig['lemonsqueezy']> = {}): PaymentsConfig['lemonsqueezy'] {
  return { apiKey: API_KEY, storeId: STORE_ID, webhookSecret: SECRET, baseUrl: fake.origin, variants: { ...VARIANTS }, ...over };
}

beforeEach(async () => {
  fake = await startFakeLemonSqueezy({
    apiKey: API_KEY,
    storeId: STORE_ID,
    signingSecret: SECRET,
    variants: {
      ...Object.fromEntries(Object.entries(PRICES).map(([id, price]) => [id, { price, subscription: id.startsWith('1') }])),
      [FOREIGN_PACK]: { price: 100, subscription: false },
      [FOREIGN_PLAN]: { price: 100, subscription: true },
    },
  });
  ls = createLemonSqueezyProvider(config(), { timeoutMs: 2_000 });
});

afterEach(async () => {
  await fake.close();
});

const iso = (v: unknown) => new Date(String(v)).toISOString();

async function checkout(item: { kind: 'plan'; plan: PaidPlan } | { kind: 'pack'; pack: PackId }, userId = 7, checkoutId = `co_${item.kind}_1`) {
  return ls.createCheckout({ checkoutId, userId, email: 'ada@example.com', item, currency: 'usd', locale: 'ko', successUrl: 'https://dewy.test/payment/return?c=1', cancelUrl: 'https://dewy.test/pricing' });
}

async function buyPlan(plan: PaidPlan, userId = 7) {
  const { providerCheckoutId } = await checkout({ kind: 'plan', plan }, userId);
  const done = fake.completeCheckout(providerCheckoutId);
  return { subscription: done.subscription!, invoice: done.invoice!, order: done.order };
}

async function buyPack(pack: PackId, userId = 7) {
  const { providerCheckoutId } = await checkout({ kind: 'pack', pack }, userId);
  return fake.completeCheckout(providerCheckoutId).order;
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

describe('createCheckout', () => {
  it('posts a JSON:API checkout for a plan: custom data, redirect, store and plan variant', async () => {
    const res = await checkout({ kind: 'plan', plan: 'deluxe' }, 7, 'co_abc');
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/checkouts');
    expect(req.authorized).toBe(true);
    expect(req.headers.accept).toBe('application/vnd.api+json');
    expect(req.headers['content-type']).toBe('application/vnd.api+json');
    expect(req.body).toEqual({
      data: {
        type: 'checkouts',
        attributes: {
          checkout_data: { email: 'ada@example.com', custom: { user_id: '7', checkout_id: 'co_abc' } },
          product_options: { redirect_url: 'https://dewy.test/payment/return?c=1' },
        },
        relationships: {
          store: { data: { type: 'stores', id: STORE_ID } },
          variant: { data: { type: 'variants', id: VARIANTS.deluxe } },
        },
      },
    });
    const stored = fake.checkouts.get(res.providerCheckoutId);
    expect(stored?.variantId).toBe(VARIANTS.deluxe);
    expect(res.url).toBe(stored?.attributes.url);
    expect(res.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/custom\//);
  });

  it('uses the pack variant for a pack', async () => {
    const res = await checkout({ kind: 'pack', pack: 'package3' }, 12, 'co_pack');
    const body = fake.requests[0]!.body as { data: { relationships: { variant: { data: { id: string } } }; attributes: { checkout_data: { custom: unknown } } } };
    expect(body.data.relationships.variant.data.id).toBe(VARIANTS.package3);
    expect(body.data.attributes.checkout_data.custom).toEqual({ user_id: '12', checkout_id: 'co_pack' });
    expect(fake.checkouts.get(res.providerCheckoutId)?.variantId).toBe(VARIANTS.package3);
  });
});

describe('getOrder', () => {
  it('maps a paid pack order', async () => {
    const order = await buyPack('package2');
    fake.requests.length = 0;
    const got = await ls.getOrder(order.id);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/orders/${order.id}`]);
    expect(got).toEqual({
      id: order.id,
      userId: null,
      pack: 'package2',
      status: 'paid',
      amountMinor: 1000,
      refundedMinor: 0,
      createdAt: new Date(iso(order.attributes.created_at)),
      currency: 'usd',
      method: null,
      receiptUrl: (order.attributes as { urls: { receipt: string } }).urls.receipt,
    });
  });

  it('maps a full refund', async () => {
    const order = await buyPack('package4');
    fake.refundOrder(order.id);
    const got = await ls.getOrder(order.id);
    expect(got.status).toBe('refunded');
    expect(got.refundedMinor).toBe(4000);
    expect(got.amountMinor).toBe(4000);
  });

  it('maps a partial refund to refunded with the refunded amount', async () => {
    const order = await buyPack('package5');
    fake.refundOrder(order.id, 1234);
    expect(fake.orders.get(order.id)?.attributes.status).toBe('partial_refund');
    const got = await ls.getOrder(order.id);
    expect(got.status).toBe('refunded');
    expect(got.refundedMinor).toBe(1234);
    expect(got.amountMinor).toBe(8000);
  });

  it('takes a full refund without refunded_amount (older objects) as the total', async () => {
    const order = await buyPack('package2');
    const attributes: Record<string, unknown> = { ...fake.orders.get(order.id)!.attributes, status: 'refunded', refunded: true };
    delete attributes.refunded_amount;
    fake.injectNext(200, { data: { type: 'orders', id: order.id, attributes } });
    const got = await ls.getOrder(order.id);
    expect(got.status).toBe('refunded');
    expect(got.refundedMinor).toBe(1000);
  });

  it('refuses an order whose variant is not one of our packs', async () => {
    const { providerCheckoutId } = await checkout({ kind: 'pack', pack: 'package1' });
    fake.checkouts.get(providerCheckoutId)!.variantId = FOREIGN_PACK;
    const order = fake.completeCheckout(providerCheckoutId).order;
    const err = await rejection(ls.getOrder(order.id));
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect(err.message).toContain('not one of our packs');
  });

  it("refuses the order of a subscription's first payment (a plan variant)", async () => {
    const { order } = await buyPlan('basic');
    const err = await rejection(ls.getOrder(order.id));
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect(err.message).toContain('subscription plan');
  });
});

describe('getSubscription', () => {
  it('maps an active subscription; the first period starts when it was created', async () => {
    const { subscription } = await buyPlan('deluxe');
    const got = await ls.getSubscription(subscription.id);
    const a = subscription.attributes;
    expect(got).toEqual({
      id: subscription.id,
      userId: null,
      plan: 'deluxe',
      nextPlan: null,
      status: 'active',
      // Bought on Jan 31: renews Feb 28; one month back (Jan 28) is before it existed.
      currentPeriodStart: new Date(iso(a.created_at)),
      currentPeriodEnd: new Date(iso(a.renews_at)),
      cancelAtPeriodEnd: false,
      endedAt: null,
      createdAt: new Date(iso(a.created_at)),
      currency: 'usd',
    });
    expect(iso(a.renews_at).slice(0, 10)).toBe('2025-02-28');
  });

  it('derives the period start as renews_at minus one month after a renewal', async () => {
    const { subscription } = await buyPlan('basic');
    fake.renew(subscription.id);
    const a = fake.subscriptions.get(subscription.id)!.attributes;
    expect(iso(a.renews_at).slice(0, 10)).toBe('2025-03-31');
    const got = await ls.getSubscription(subscription.id);
    expect(got.currentPeriodEnd).toEqual(new Date(iso(a.renews_at)));
    expect(got.currentPeriodStart).toEqual(addMonthsUtc(new Date(iso(a.renews_at)), -1));
    expect(got.currentPeriodStart.toISOString().slice(0, 10)).toBe('2025-02-28');
  });

  it('maps LS cancelled to active with cancelAtPeriodEnd and the period ending at ends_at', async () => {
    const { subscription } = await buyPlan('premium');
    fake.requests.length = 0;
    const got = await ls.cancel(subscription.id);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`DELETE /v1/subscriptions/${subscription.id}`, `GET /v1/subscriptions/${subscription.id}`]);
    const a = fake.subscriptions.get(subscription.id)!.attributes;
    expect(a.status).toBe('cancelled');
    expect(got.status).toBe('active');
    expect(got.cancelAtPeriodEnd).toBe(true);
    expect(got.currentPeriodEnd).toEqual(new Date(iso(a.ends_at)));
    expect(got.endedAt).toBeNull();
  });

  it('resume sends cancelled: false and clears the scheduled cancellation', async () => {
    const { subscription } = await buyPlan('basic');
    await ls.cancel(subscription.id);
    fake.requests.length = 0;
    const got = await ls.resume(subscription.id);
    const patch = fake.requests[0]!;
    expect(patch.method).toBe('PATCH');
    expect(patch.path).toBe(`/v1/subscriptions/${subscription.id}`);
    expect(patch.body).toEqual({ data: { type: 'subscriptions', id: subscription.id, attributes: { cancelled: false } } });
    expect(got.cancelAtPeriodEnd).toBe(false);
    expect(got.status).toBe('active');
    expect(got.currentPeriodEnd).toEqual(new Date(iso(fake.subscriptions.get(subscription.id)!.attributes.renews_at)));
  });

  it('maps an expired subscription: status expired, endedAt = ends_at', async () => {
    const { subscription } = await buyPlan('basic');
    await ls.cancel(subscription.id);
    fake.expire(subscription.id);
    const got = await ls.getSubscription(subscription.id);
    const endsAt = new Date(iso(fake.subscriptions.get(subscription.id)!.attributes.ends_at));
    expect(got.status).toBe('expired');
    expect(got.endedAt).toEqual(endsAt);
    expect(got.currentPeriodEnd).toEqual(endsAt);
    expect(got.cancelAtPeriodEnd).toBe(false);
  });

  it('maps past_due after a failed renewal', async () => {
    const { subscription } = await buyPlan('deluxe');
    fake.failRenewal(subscription.id);
    const got = await ls.getSubscription(subscription.id);
    expect(got.status).toBe('past_due');
    expect(got.plan).toBe('deluxe');
  });

  it('maps the other LS statuses (on_trial, paused, unpaid) and refuses an unknown one', async () => {
    const { subscription } = await buyPlan('basic');
    const base = fake.subscriptions.get(subscription.id)!.attributes;
    const as = (over: Record<string, unknown>) => fake.injectNext(200, { data: { type: 'subscriptions', id: subscription.id, attributes: { ...base, ...over } } });
    const trialEnd = '2025-02-14T10:00:00.000000Z';
    as({ status: 'on_trial', renews_at: null, trial_ends_at: trialEnd });
    const trial = await ls.getSubscription(subscription.id);
    expect(trial.status).toBe('trialing');
    expect(trial.currentPeriodEnd).toEqual(new Date(trialEnd));
    as({ status: 'paused' });
    expect((await ls.getSubscription(subscription.id)).status).toBe('paused');
    as({ status: 'unpaid' });
    expect((await ls.getSubscription(subscription.id)).status).toBe('unpaid');
    as({ status: 'frozen' });
    await expect(ls.getSubscription(subscription.id)).rejects.toThrow(/unknown status "frozen"/);
  });

  it('refuses a subscription on a variant that is not one of our plans', async () => {
    const { providerCheckoutId } = await checkout({ kind: 'plan', plan: 'basic' });
    fake.checkouts.get(providerCheckoutId)!.variantId = FOREIGN_PLAN;
    const sub = fake.completeCheckout(providerCheckoutId).subscription!;
    await expect(ls.getSubscription(sub.id)).rejects.toThrow(/not one of our plans/);
  });
});

describe('getInvoice', () => {
  it('maps the initial invoice: paid, plan via the subscription, period to renews_at', async () => {
    const { subscription, invoice } = await buyPlan('deluxe');
    fake.requests.length = 0;
    const got = await ls.getInvoice(invoice.id);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/subscription-invoices/${invoice.id}`, `GET /v1/subscriptions/${subscription.id}`]);
    expect(got).toEqual({
      id: invoice.id,
      subscriptionId: subscription.id,
      userId: null,
      status: 'paid',
      reason: 'initial',
      plan: 'deluxe',
      periodStart: new Date(iso(invoice.attributes.created_at)),
      periodEnd: new Date(iso(subscription.attributes.renews_at)),
      amountMinor: 1990,
      refundedMinor: 0,
      createdAt: new Date(iso(invoice.attributes.created_at)),
      proration: null,
      currency: 'usd',
      method: 'card',
      receiptUrl: (invoice.attributes as { urls: { invoice_url: string } }).urls.invoice_url,
    });
  });

  it('maps a renewal invoice to the new period; an older invoice keeps one month from its date', async () => {
    const { subscription, invoice: initial } = await buyPlan('basic');
    const renewal = fake.renew(subscription.id);
    const got = await ls.getInvoice(renewal.id);
    expect(got.reason).toBe('renewal');
    expect(got.status).toBe('paid');
    expect(got.amountMinor).toBe(990);
    expect(got.periodStart).toEqual(new Date(iso(renewal.attributes.created_at)));
    expect(got.periodEnd).toEqual(new Date(iso(fake.subscriptions.get(subscription.id)!.attributes.renews_at)));
    const old = await ls.getInvoice(initial.id);
    expect(old.periodEnd).toEqual(addMonthsUtc(new Date(iso(initial.attributes.created_at)), 1));
  });

  it('maps a failed renewal (LS pending) to open', async () => {
    const { subscription } = await buyPlan('basic');
    const failed = fake.failRenewal(subscription.id);
    const got = await ls.getInvoice(failed.id);
    expect(got.status).toBe('open');
    expect(got.reason).toBe('renewal');
  });

  it('maps refunded and partially refunded invoices', async () => {
    const { subscription, invoice } = await buyPlan('premium');
    fake.refundInvoice(invoice.id, 1000);
    let got = await ls.getInvoice(invoice.id);
    expect(got.status).toBe('refunded');
    expect(got.refundedMinor).toBe(1000);
    const renewal = fake.renew(subscription.id);
    fake.refundInvoice(renewal.id);
    got = await ls.getInvoice(renewal.id);
    expect(got.status).toBe('refunded');
    expect(got.refundedMinor).toBe(2990);
  });
});

describe('changePlan', () => {
  it('upgrade sends invoice_immediately and the prorated `updated` invoice maps to upgrade', async () => {
    const { subscription } = await buyPlan('basic');
    fake.advance(10 * DAY);
    fake.requests.length = 0;
    const got = await ls.changePlan(subscription.id, 'premium', 'now');
    const patch = fake.requests[0]!;
    expect(`${patch.method} ${patch.path}`).toBe(`PATCH /v1/subscriptions/${subscription.id}`);
    expect(patch.body).toEqual({
      data: { type: 'subscriptions', id: subscription.id, attributes: { variant_id: 103, invoice_immediately: true, cancelled: false } },
    });
    expect(fake.requests[1]).toMatchObject({ method: 'GET', path: `/v1/subscriptions/${subscription.id}` });
    expect(got.plan).toBe('premium');
    expect(got.nextPlan).toBeNull();

    const updated = [...fake.invoices.values()].find((i) => i.attributes.billing_reason === 'updated');
    expect(updated).toBeDefined();
    const inv = await ls.getInvoice(updated!.id);
    expect(inv.reason).toBe('upgrade');
    expect(inv.plan).toBe('premium');
    expect(inv.amountMinor).toBe(updated!.attributes.total);
    expect(inv.amountMinor).toBeGreaterThan(0);
    expect(inv.amountMinor).toBeLessThan(2990 - 990);
    // An LS invoice has no period: the amount charged for the difference (subtotal) is the basis.
    expect(inv.proration).toEqual({ chargedMinor: updated!.attributes.subtotal });
    expect(inv.periodStart).toEqual(new Date(iso(updated!.attributes.created_at)));
    expect(inv.periodEnd).toEqual(got.currentPeriodEnd);
  });

  it('downgrade sends disable_prorations: nothing is charged now, the next renewal bills the new price', async () => {
    const { subscription } = await buyPlan('premium');
    fake.requests.length = 0;
    await ls.changePlan(subscription.id, 'basic', 'next_cycle');
    expect(fake.requests[0]!.body).toEqual({
      data: { type: 'subscriptions', id: subscription.id, attributes: { variant_id: 101, disable_prorations: true, cancelled: false } },
    });
    expect(fake.invoices.size).toBe(1);
    const renewal = fake.renew(subscription.id);
    const inv = await ls.getInvoice(renewal.id);
    expect(inv.amountMinor).toBe(990);
    expect(inv.plan).toBe('basic');
  });

  it('a plan change clears a scheduled cancellation', async () => {
    const { subscription } = await buyPlan('basic');
    expect((await ls.cancel(subscription.id)).cancelAtPeriodEnd).toBe(true);
    const got = await ls.changePlan(subscription.id, 'deluxe', 'now');
    expect(got.cancelAtPeriodEnd).toBe(false);
    expect(got.plan).toBe('deluxe');
  });
});

describe('parseWebhook', () => {
  it('parses a pack order_created: key, order ref, user and checkout from custom data', async () => {
    const order = await buyPack('package1', 31);
    const { body, headers } = fake.signedWebhook('order_created', order);
    const ev = await ls.parseWebhook(body, headers);
    expect(ev).toEqual({
      key: `order_created:orders:${order.id}:${String(order.attributes.updated_at)}`,
      type: 'order_created',
      object: { kind: 'order', id: order.id },
      userId: 31,
      checkoutId: 'co_pack_1',
    });
  });

  it('maps subscription events to the subscription and payment events to the invoice (data.id)', async () => {
    const { subscription, invoice, order } = await buyPlan('deluxe', 5);
    for (const name of ['subscription_created', 'subscription_updated', 'subscription_cancelled', 'subscription_resumed', 'subscription_expired', 'subscription_paused', 'subscription_unpaused', 'subscription_plan_changed']) {
      const { body, headers } = fake.signedWebhook(name, subscription);
      const ev = await ls.parseWebhook(body, headers);
      expect(ev.object).toEqual({ kind: 'subscription', id: subscription.id });
      expect(ev.userId).toBe(5);
      expect(ev.checkoutId).toBe('co_plan_1');
    }
    for (const name of ['subscription_payment_success', 'subscription_payment_failed', 'subscription_payment_recovered', 'subscription_payment_refunded']) {
      const { body, headers } = fake.signedWebhook(name, invoice);
      const ev = await ls.parseWebhook(body, headers);
      expect(ev.object).toEqual({ kind: 'invoice', id: invoice.id });
      expect(ev.key).toBe(`${name}:subscription-invoices:${invoice.id}:${String(invoice.attributes.updated_at)}`);
    }
    // The order of a subscription's first payment: the subscription and invoice events carry it.
    const first = fake.signedWebhook('order_created', order);
    const ev = await ls.parseWebhook(first.body, first.headers);
    expect(ev.object).toBeNull();
    expect(ev.userId).toBe(5);
  });

  it('acknowledges other events with a null object; no custom data gives null ids', async () => {
    const order = await buyPack('package1');
    const { body, headers } = fake.signedWebhook('license_key_created', { type: 'license-keys', id: '77', attributes: { updated_at: '2025-01-31T10:00:00.000000Z' } }, null);
    const ev = await ls.parseWebhook(body, headers);
    expect(ev).toMatchObject({ type: 'license_key_created', object: null, userId: null, checkoutId: null });
    const plain = fake.signedWebhook('order_refunded', order, null);
    expect(await ls.parseWebhook(plain.body, plain.headers)).toMatchObject({ object: { kind: 'order', id: order.id }, userId: null, checkoutId: null });
  });

  it('gives two deliveries of one event the same key, and a later change a new one', async () => {
    const order = await buyPack('package3');
    const first = fake.signedWebhook('order_refunded', fake.refundOrder(order.id, 100));
    const again = fake.signedWebhook('order_refunded', fake.orders.get(order.id)!);
    const k1 = (await ls.parseWebhook(first.body, first.headers)).key;
    expect((await ls.parseWebhook(again.body, again.headers)).key).toBe(k1);
    const second = fake.signedWebhook('order_refunded', fake.refundOrder(order.id, 100));
    expect((await ls.parseWebhook(second.body, second.headers)).key).not.toBe(k1);
  });

  it('rejects a signature made with another secret', async () => {
    const order = await buyPack('package1');
    const { body, headers } = fake.signedWebhook('order_created', order);
    const forged = createHmac('sha256', 'not-the-secret').update(body).digest('hex');
    await expect(ls.parseWebhook(body, { ...headers, 'x-signature': forged })).rejects.toBeInstanceOf(WebhookSignatureError);
    // The genuine one passes, so the rejection above is the signature's doing.
    await expect(ls.parseWebhook(body, headers)).resolves.toMatchObject({ type: 'order_created' });
  });

  it('rejects a body with one byte changed', async () => {
    const order = await buyPack('package1');
    const { body, headers } = fake.signedWebhook('order_created', order);
    const tampered = Buffer.from(body);
    const at = tampered.indexOf('"total":') + '"total":'.length;
    tampered[at] = tampered[at] === 0x39 ? 0x38 : 0x39;
    expect(tampered.equals(body)).toBe(false);
    await expect(ls.parseWebhook(tampered, headers)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('rejects a missing or malformed X-Signature', async () => {
    const order = await buyPack('package1');
    const { body, headers } = fake.signedWebhook('order_created', order);
    const { 'x-signature': sig, ...noSig } = headers;
    await expect(ls.parseWebhook(body, noSig)).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(ls.parseWebhook(body, { ...headers, 'x-signature': sig!.slice(0, 63) })).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(ls.parseWebhook(body, { ...headers, 'x-signature': `${sig!.slice(0, 62)}zz` })).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(ls.parseWebhook(body, { ...headers, 'x-signature': [sig!, sig!] })).rejects.toBeInstanceOf(WebhookSignatureError);
    // Header names are case-insensitive.
    await expect(ls.parseWebhook(body, { 'X-Signature': sig, 'X-Event-Name': 'order_created' })).resolves.toMatchObject({ object: { kind: 'order' } });
  });

  it('refuses an X-Event-Name that disagrees with the signed event name', async () => {
    const order = await buyPack('package1');
    const { body, headers } = fake.signedWebhook('order_created', order);
    await expect(ls.parseWebhook(body, { ...headers, 'x-event-name': 'order_refunded' })).rejects.toThrow(/disagrees/);
  });

  it('refuses a signed body it does not understand (bad user id, wrong resource type)', async () => {
    const order = await buyPack('package1');
    const badUser = fake.signedWebhook('order_created', order, { user_id: '0', checkout_id: 'co_x' });
    await expect(ls.parseWebhook(badUser.body, badUser.headers)).rejects.toThrow(PaymentProviderError);
    const notInt = fake.signedWebhook('order_created', order, { user_id: '7; drop', checkout_id: 'co_x' });
    await expect(ls.parseWebhook(notInt.body, notInt.headers)).rejects.toThrow(/user_id/);
    const wrongType = fake.signedWebhook('subscription_payment_success', order);
    await expect(ls.parseWebhook(wrongType.body, wrongType.headers)).rejects.toThrow(/subscription-invoices/);
  });
});

describe('errors', () => {
  it('a wrong API key is a PaymentProviderError with status 401 that does not contain the key', async () => {
    const wrongKey = 'ls_wrong_key_zzz';
    const other = createLemonSqueezyProvider(config({ apiKey: wrongKey }));
    const err = await rejection(other.getOrder('1'));
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect((err as PaymentProviderError).status).toBe(401);
    expect(err.message).toContain('Unauthenticated');
    expect(err.message).not.toContain(wrongKey);
    expect(fake.requests[0]!.authorized).toBe(false);
  });

  it('LS echoing the key in an error never puts it in our message', async () => {
    fake.injectNext(422, { errors: [{ status: '422', title: 'Unprocessable Entity', detail: `key ${API_KEY} is odd` }] });
    const err = await rejection(ls.getSubscription('1'));
    expect((err as PaymentProviderError).status).toBe(422);
    expect(err.message).toContain('Unprocessable Entity');
    expect(err.message).not.toContain(API_KEY);
  });

  it('maps 404 and 5xx with their status', async () => {
    const missing = await rejection(ls.getSubscription('424242'));
    expect(missing).toBeInstanceOf(PaymentProviderError);
    expect((missing as PaymentProviderError).status).toBe(404);
    fake.injectNext(503, 'upstream unavailable');
    const down = await rejection(ls.getInvoice('1'));
    expect((down as PaymentProviderError).status).toBe(503);
  });

  it('refuses a malformed JSON:API answer', async () => {
    const order = await buyPack('package1');
    fake.injectNext(200, { data: { type: 'orders', id: order.id } });
    await expect(ls.getOrder(order.id)).rejects.toThrow(/not a JSON:API resource/);
    fake.injectNext(200, { data: { ...fake.orders.get(order.id)!, type: 'subscriptions' } });
    await expect(ls.getOrder(order.id)).rejects.toThrow(/expected a "orders" resource/);
    fake.injectNext(200, { data: { type: 'orders', id: order.id, attributes: { ...fake.orders.get(order.id)!.attributes, total: 'lots' } } });
    await expect(ls.getOrder(order.id)).rejects.toThrow(/total/);
    fake.injectNext(200, 'not json');
    const notJson = await rejection(ls.getOrder(order.id));
    expect(notJson).toBeInstanceOf(PaymentProviderError);
    expect(notJson.message).toContain('not JSON');
    fake.injectNext(201, { data: { type: 'checkouts', id: 'x', attributes: { url: 'not a url' } } });
    await expect(checkout({ kind: 'pack', pack: 'package1' })).rejects.toThrow(PaymentProviderError);
  });

  it('a request that outlives the timeout is a PaymentProviderError without status', async () => {
    const slow = createLemonSqueezyProvider(config(), { timeoutMs: 150 });
    fake.injectNext(200, {}, 1_000);
    const err = await rejection(slow.getOrder('1'));
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect((err as PaymentProviderError).status).toBeUndefined();
    expect(err.message).toContain('timed out after 150 ms');
  });

  it('an unreachable API is a PaymentProviderError without status', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const gone = createLemonSqueezyProvider(config({ baseUrl: `http://127.0.0.1:${port}` }));
    const err = await rejection(gone.getOrder('1'));
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect((err as PaymentProviderError).status).toBeUndefined();
    expect(err.message).toContain('could not be reached');
  });
});

describe('addMonthsUtc', () => {
  it('clamps to the last day of the month and keeps the time', () => {
    expect(addMonthsUtc(new Date('2025-03-31T10:00:00Z'), -1).toISOString()).toBe('2025-02-28T10:00:00.000Z');
    expect(addMonthsUtc(new Date('2024-01-31T23:59:59Z'), 1).toISOString()).toBe('2024-02-29T23:59:59.000Z');
    expect(addMonthsUtc(new Date('2024-12-15T00:00:00Z'), 1).toISOString()).toBe('2025-01-15T00:00:00.000Z');
  });
});
