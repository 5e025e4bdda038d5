import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FakeLemonSqueezy } from '../../../test/fakes/fake-lemonsqueezy.server';
import type { FakeStripe } from '../../../test/fakes/fake-stripe.server';
import {
  paySandboxCheckout,
  startLemonSqueezyBillingApp,
  startSandboxBillingApp,
  startStripeBillingApp,
  stripeSessionOf as sessionOf,
  type LemonSqueezyBillingApp,
  type StripeBillingApp,
} from '../../../test/helpers/billing';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import type { DbOrTx } from '../../db/client';
import { billingCheckouts, billingEvents, creditLedger, sandboxObjects, subscriptions, users } from '../../db/schema';
import { creditPeriods, getBalance, grant, ledgerSums, refund, spend } from '../credits';
import type { PaymentsProvider } from './payments-provider';
import type { SandboxProvider } from './providers/sandbox.provider';

/**
 * One subscription at a time (issue 21 point 2) and refunds into ended periods (point 5), decision 029,
 * on PGlite and PostgreSQL: parallel plan checkouts create exactly one; a subscription the provider
 * created anyway is refused at the webhook, cancelled and refunded there (sandbox, Stripe and Lemon
 * Squeezy fakes), never granted; two live subscriptions (older data) end one at a time.
 */

/** Balances = ledger sums; the open credit periods hold exactly the subscription balance. */
async function books(db: DbOrTx, userId: number) {
  const balance = await getBalance(db, userId);
  expect(await ledgerSums(db, userId)).toEqual(balance);
  const open = (await creditPeriods(db, userId)).filter((p) => !p.endedAt);
  expect(open.reduce((a, p) => a + p.remaining, 0)).toBe(balance.subscription);
  return balance;
}

const outcomesOf = async (db: DbOrTx, objectId: string) =>
  (await db.select({ outcome: billingEvents.outcome }).from(billingEvents).where(eq(billingEvents.objectId, objectId))).map((r) => r.outcome);

describe.each(TEST_DATABASES)('one subscription at a time (sandbox) on $name', (kind) => {
  let t: TestApp;
  let sandbox: SandboxProvider;
  beforeAll(async () => {
    ({ t, sandbox } = await startSandboxBillingApp(kind));
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (cookie: string, url: string, payload: object, lang = 'ko') =>
    t.app.inject({ method: 'POST', url, headers: { cookie, 'accept-language': lang }, payload });
  const payForm = (checkoutUrl: string, card?: string) => paySandboxCheckout(t, checkoutUrl, card);
  const subscribe = async (cookie: string, plan: string) => {
    const r = await post(cookie, '/api/payment/checkout', { plan });
    expect(r.statusCode, r.body).toBe(200);
    await payForm(r.json().checkout_url);
  };
  const userRow = async (id: number) => (await t.ctx.database.db.select().from(users).where(eq(users.id, id)))[0]!;
  const checkoutsOf = async (userId: number) => t.ctx.database.db.select().from(billingCheckouts).where(eq(billingCheckouts.userId, userId));
  const sandboxCheckoutsOf = async (userId: number) =>
    (await t.ctx.database.db.select().from(sandboxObjects).where(eq(sandboxObjects.kind, 'checkout'))).filter((o) => (o.data as { userId: number }).userId === userId);

  for (const n of [2, 20]) {
    it(`${n} plan checkouts in parallel create exactly one; the others get that one back or a clear refusal`, async () => {
      const { cookie, user } = await signUpAndLogin(t.app);
      const plans = ['basic', 'deluxe', 'premium'];
      const answers = await Promise.all(Array.from({ length: n }, (_, i) => post(cookie, '/api/payment/checkout', { plan: plans[i % 3]! }, i % 2 ? 'en' : 'ko')));
      expect(await checkoutsOf(user.id)).toHaveLength(1);
      expect(await sandboxCheckoutsOf(user.id)).toHaveLength(1);
      const ok = answers.filter((a) => a.statusCode === 200);
      expect(new Set(ok.map((a) => a.json().checkoutId)).size).toBe(1);
      for (const a of answers.filter((x) => x.statusCode !== 200)) {
        expect(a.statusCode).toBe(409);
        expect(a.json().code).toBe('CHECKOUT_IN_PROGRESS');
      }
      expect(ok.length + answers.filter((a) => a.statusCode === 409).length).toBe(n);
    });
  }

  it('an open checkout: the same plan gets it back (also after a declined card), another plan is refused in the user language', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const first = await post(cookie, '/api/payment/checkout', { plan: 'basic' });
    expect(first.statusCode).toBe(200);
    const declined = await payForm(first.json().checkout_url, '4000 0000 0000 0002');
    expect(declined.headers.location).toContain('/payment/failed');
    const again = await post(cookie, '/api/payment/checkout', { plan: 'basic' });
    expect(again.json()).toMatchObject({ checkoutId: first.json().checkoutId, checkout_url: first.json().checkout_url });
    const other = await post(cookie, '/api/payment/checkout', { plan: 'premium' }, 'en');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'CHECKOUT_IN_PROGRESS', error: 'A subscription checkout is already open. Finish that payment, or try again in 30 minutes.' });
    const otherKo = await post(cookie, '/api/payment/checkout', { plan: 'premium' }, 'ko');
    expect(otherKo.json().error).toBe('진행 중인 구독 결제가 있습니다. 열려 있는 결제를 마치거나, 30분 뒤에 다시 시도해주세요.');
    // Packs are not held up by an open plan checkout.
    expect((await post(cookie, '/api/payment/credit-checkout', { package: 'package1' })).statusCode).toBe(200);
    // The returned checkout still pays; then any plan checkout is ALREADY_SUBSCRIBED.
    await payForm(first.json().checkout_url);
    expect((await books(t.ctx.database.db, user.id)).subscription).toBe(4500);
    expect((await post(cookie, '/api/payment/checkout', { plan: 'premium' })).json().code).toBe('ALREADY_SUBSCRIBED');
    // A stale open checkout (older than 30 minutes) no longer holds anything up.
    const { cookie: c2, user: u2 } = await signUpAndLogin(t.app);
    await post(c2, '/api/payment/checkout', { plan: 'basic' });
    await t.ctx.database.db.update(billingCheckouts).set({ createdAt: new Date(Date.now() - 31 * 60_000) }).where(eq(billingCheckouts.userId, u2.id));
    expect((await post(c2, '/api/payment/checkout', { plan: 'deluxe' })).statusCode).toBe(200);
  });

  it('a second subscription created at the provider anyway is refused at the webhook: cancelled and refunded there, never granted', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    await subscribe(cookie, 'basic');
    // A checkout opened before the rule (or in a race) is paid: the sandbox creates a second subscription.
    const co = await sandbox.createCheckout({ checkoutId: randomUUID(), userId: user.id, email: 'dup@example.com', item: { kind: 'plan', plan: 'premium' }, currency: 'usd', locale: 'ko', successUrl: '/ok', cancelUrl: '/no' });
    await payForm(co.url);
    const second = (await t.ctx.database.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))).find((s) => s.plan === 'premium')!;
    expect(second.refusedAt).not.toBeNull();
    expect((await sandbox.getSubscription(second.providerSubscriptionId)).status).toBe('expired');
    const invoices = (await t.ctx.database.db.select().from(sandboxObjects).where(eq(sandboxObjects.kind, 'invoice'))).filter((o) => (o.data as { subscriptionId: string }).subscriptionId === second.providerSubscriptionId);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]!.data).toMatchObject({ status: 'refunded', refundedMinor: 2900 });
    expect(await outcomesOf(t.ctx.database.db, invoices[0]!.id)).toContain('duplicate_subscription');
    // Only the first subscription's credits; its plan stays; the refund's webhook took nothing back.
    expect(await books(t.ctx.database.db, user.id)).toMatchObject({ oneTime: 300, subscription: 4500 });
    expect(await userRow(user.id)).toMatchObject({ plan: 'basic', creditDebt: 0 });
    const st = (await t.app.inject({ url: '/api/payment/subscription-status', headers: { cookie } })).json();
    expect(st).toMatchObject({ hasSubscription: true, plan: 'basic' });
  });

  it('two live subscriptions (older data): when one ends, only its credits expire and the plan stays on the other', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    await subscribe(cookie, 'basic');
    const db = t.ctx.database.db;
    // A second live subscription from before the rule, newer than the first, with its own credits.
    const id = `sbx_sub_${randomUUID()}`;
    const start = new Date(Date.now() + 1000);
    const end = new Date(start.getTime() + 30 * 86_400_000);
    await db.insert(sandboxObjects).values({ id, kind: 'subscription', data: { userId: user.id, checkoutId: null, plan: 'deluxe', nextPlan: null, status: 'active', periodStart: start.toISOString(), periodEnd: end.toISOString(), cancelAtPeriodEnd: false, endedAt: null, createdAt: start.toISOString() } });
    await db.insert(subscriptions).values({ userId: user.id, provider: 'sandbox', providerSubscriptionId: id, plan: 'deluxe', status: 'active', currentPeriodStart: start, currentPeriodEnd: end, providerCreatedAt: start, creditedPeriodStart: start, creditedPlan: 'deluxe' });
    await grant(db, { userId: user.id, amount: 9500, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'deluxe' }, idempotencyKey: `legacy:${id}`, period: { subscription: `sandbox:${id}`, start } });
    await spend(db, { userId: user.id, amount: 2300, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `job:${user.id}` }); // 300 one-time, 2000 from the oldest period
    expect(await books(db, user.id)).toMatchObject({ oneTime: 0, subscription: 4500 - 2000 + 9500 });
    await sandbox.expire(id);
    await sandbox.idle();
    expect(await books(db, user.id)).toMatchObject({ subscription: 2500 });
    expect((await userRow(user.id)).plan).toBe('basic');
    const st = (await t.app.inject({ url: '/api/payment/subscription-status', headers: { cookie } })).json();
    expect(st).toMatchObject({ hasSubscription: true, plan: 'basic' });
  });

  it('a job paid from subscription credits fails after the renewal, and after the end: refunded and expired at once', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const db = t.ctx.database.db;
    await subscribe(cookie, 'basic');
    await spend(db, { userId: user.id, amount: 1300, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `j1:${user.id}` }); // 300 one-time + 1000 subscription
    const subId = (await userRow(user.id)).subscriptionId!;
    await sandbox.renew(subId);
    await sandbox.idle();
    expect((await books(db, user.id)).subscription).toBe(4500);
    await refund(db, { spendKey: `j1:${user.id}`, reason: { code: 'job_refund', source: 'upscale' } });
    // The one-time part comes back; the old period's part comes back and expires: only the new period's credits.
    expect(await books(db, user.id)).toMatchObject({ oneTime: 300, subscription: 4500 });
    const rows = await db.select().from(creditLedger).where(and(eq(creditLedger.userId, user.id), eq(creditLedger.bucket, 'subscription')));
    expect(rows.filter((r) => r.idempotencyKey.startsWith(`refund:j1:${user.id}`)).map((r) => [r.kind, r.delta])).toEqual([['refund', 1000], ['expire', -1000]]);

    await spend(db, { userId: user.id, amount: 800, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `j2:${user.id}` });
    await post(cookie, '/api/payment/cancel-subscription', {});
    await sandbox.renew(subId); // the scheduled cancel ends it
    await sandbox.idle();
    expect((await userRow(user.id)).plan).toBe('free');
    await refund(db, { spendKey: `j2:${user.id}`, reason: { code: 'job_refund', source: 'upscale' } });
    expect(await books(db, user.id)).toMatchObject({ oneTime: 300, subscription: 0 });
  });
});

describe.each(TEST_DATABASES)('a duplicate subscription through the Stripe fake on $name', (kind) => {
  let t: TestApp;
  let fake: FakeStripe;
  let payments: PaymentsProvider;
  let deliver: StripeBillingApp['deliver'];
  let close: StripeBillingApp['close'];
  beforeAll(async () => {
    ({ t, fake, payments, deliver, close } = await startStripeBillingApp(kind, { secretKey: 'sk_test_dewy_one_subscription_01', webhookSecret: 'whsec_dewy_one_subscription' }));
  });
  afterAll(async () => {
    await close?.();
  });

  it('the second subscription is cancelled at Stripe and its invoice refunded; its refund webhook takes nothing', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/checkout', headers: { cookie }, payload: { plan: 'basic' } });
    const first = fake.completeCheckout(sessionOf(r.json().checkout_url));
    await deliver('checkout.session.completed', sessionOf(r.json().checkout_url));
    expect((await deliver('invoice.paid', first.invoiceId!)).json().outcome).toBe('granted');

    const co = await payments.createCheckout({ checkoutId: randomUUID(), userId: user.id, email: 'dup@example.com', item: { kind: 'plan', plan: 'premium' }, currency: 'usd', locale: 'ko', successUrl: 'https://x.test/ok', cancelUrl: 'https://x.test/no' });
    const dup = fake.completeCheckout(co.providerCheckoutId);
    expect((await deliver('checkout.session.completed', co.providerCheckoutId)).json().outcome).toBe('duplicate_subscription');
    expect(fake.object(dup.subscriptionId!).status).toBe('canceled');
    expect(fake.requestsTo('DELETE', `/v1/subscriptions/${dup.subscriptionId!}`)).toHaveLength(1);
    expect((await deliver('invoice.paid', dup.invoiceId!)).json().outcome).toBe('duplicate_subscription');
    expect(fake.object(dup.chargeId!)).toMatchObject({ amount_refunded: 2900, refunded: true });
    // Redelivered: nothing is refunded twice.
    await deliver('invoice.paid', dup.invoiceId!);
    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(1);
    expect((await deliver('charge.refunded', dup.chargeId!)).statusCode).toBe(200);
    await deliver('customer.subscription.deleted', dup.subscriptionId!);
    expect(await books(t.ctx.database.db, user.id)).toMatchObject({ subscription: 4500 });
    expect((await t.ctx.database.db.select().from(users).where(eq(users.id, user.id)))[0]).toMatchObject({ plan: 'basic', creditDebt: 0 });
  });
});

describe.each(TEST_DATABASES)('a duplicate subscription through the Lemon Squeezy fake on $name', (kind) => {
  let t: TestApp;
  let fake: FakeLemonSqueezy;
  let payments: PaymentsProvider;
  let deliver: LemonSqueezyBillingApp['deliver'];
  let lastCheckout: LemonSqueezyBillingApp['lastCheckout'];
  let close: LemonSqueezyBillingApp['close'];
  beforeAll(async () => {
    ({ t, fake, payments, deliver, lastCheckout, close } = await startLemonSqueezyBillingApp(kind));
  });
  afterAll(async () => {
    await close?.();
  });

  it('the second subscription is cancelled at Lemon Squeezy and its invoice refunded; its refund webhook takes nothing', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    await t.app.inject({ method: 'POST', url: '/api/payment/checkout', headers: { cookie }, payload: { plan: 'basic' } });
    const first = fake.completeCheckout(lastCheckout());
    await deliver('subscription_created', first.subscription!);
    expect((await deliver('subscription_payment_success', first.invoice!)).json().outcome).toBe('granted');

    await payments.createCheckout({ checkoutId: randomUUID(), userId: user.id, email: 'dup@example.com', item: { kind: 'plan', plan: 'deluxe' }, currency: 'usd', locale: 'ko', successUrl: 'https://x.test/ok', cancelUrl: 'https://x.test/no' });
    const dup = fake.completeCheckout(lastCheckout());
    expect((await deliver('subscription_created', dup.subscription!)).json().outcome).toBe('duplicate_subscription');
    expect(fake.subscriptions.get(dup.subscription!.id)!.attributes.status).toBe('cancelled');
    expect((await deliver('subscription_payment_success', dup.invoice!)).json().outcome).toBe('duplicate_subscription');
    const inv = fake.invoices.get(dup.invoice!.id)!;
    expect(inv.attributes).toMatchObject({ status: 'refunded', refunded_amount: 1900 });
    expect((await deliver('subscription_payment_refunded', inv)).statusCode).toBe(200);
    expect(fake.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/refund'))).toHaveLength(1);
    expect(await books(t.ctx.database.db, user.id)).toMatchObject({ subscription: 4500 });
    expect((await t.ctx.database.db.select().from(users).where(eq(users.id, user.id)))[0]).toMatchObject({ plan: 'basic', creditDebt: 0 });
  });
});
