import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DEFAULT_PRICES, itemCredits, KRW_ONE_TIME_METHODS, KRW_SUBSCRIPTION_METHODS } from '@dewy/contracts';
import type { FakeStripe } from '../../../test/fakes/fake-stripe.server';
import { startStripeBillingApp, stripeSessionOf, subscribeThroughStripe, type StripeBillingApp } from '../../../test/helpers/billing';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { billingPayments } from '../../db/schema';
import { getBalance, ledgerSums } from '../credits';

/**
 * Issue 25 through the Stripe adapter and its fake, on PGlite and PostgreSQL: with won prices
 * configured (STRIPE_PRICE_KRW_*), checkouts in won carry the Korean payment methods that fit their
 * mode and the won price; what the customer pays in won with Kakao Pay or Naver Pay grants the same
 * credits as in dollars, once, whatever the webhooks do (forged, replayed, out of order, 50 at once),
 * and our books record the currency, the amount in won, the method and Stripe's receipt page.
 */
describe.each(TEST_DATABASES)('billing with Stripe in won (fake) on $name', (kind) => {
  let t: TestApp;
  let fake: FakeStripe;
  let deliver: StripeBillingApp['deliver'];
  let close: StripeBillingApp['close'];
  beforeAll(async () => {
    ({ t, fake, deliver, close } = await startStripeBillingApp(kind, { krw: true, secretKey: 'sk_test_dewy_billing_krw_0001', webhookSecret: 'whsec_dewy_billing_krw' }));
  });
  afterAll(async () => {
    await close?.();
  });

  const post = (cookie: string, url: string, payload: object, lang = 'ko') => t.app.inject({ method: 'POST', url, headers: { cookie, 'accept-language': lang }, payload });
  const books = async (userId: number) => {
    const b = await getBalance(t.ctx.database.db, userId);
    expect((await ledgerSums(t.ctx.database.db, userId)).total).toBe(b.total);
    return b;
  };
  const paymentsOf = (userId: number) => t.ctx.database.db.select().from(billingPayments).where(eq(billingPayments.userId, userId)).orderBy(billingPayments.id);
  const paymentRow = async (providerId: string) => (await t.ctx.database.db.select().from(billingPayments).where(and(eq(billingPayments.provider, 'stripe'), eq(billingPayments.providerId, providerId))))[0];
  const sentSession = (session: string) => {
    const created = fake.object(session);
    return fake.requestsTo('POST', '/v1/checkout/sessions').find((r) => r.body.metadata && (r.body.metadata as Record<string, string>).checkout_id === (created.metadata as Record<string, string>).checkout_id)!;
  };
  /** Buys `pack` in won and completes the session at Stripe paying with `method`; nothing delivered yet. */
  async function buyInWon(cookie: string, pack: string, method: 'kakao_pay' | 'naver_pay' | 'payco' | 'samsung_pay' | 'kr_card' | 'card') {
    const r = await post(cookie, '/api/payment/credit-checkout', { package: pack, currency: 'krw' });
    expect(r.statusCode, r.body).toBe(200);
    const session = stripeSessionOf(r.json().checkout_url as string);
    const done = fake.completeCheckout(session, { method });
    return { session, done, checkoutId: r.json().checkoutId as string };
  }

  it('GET /api/payment/prices: dollars and won, with the default won prices', async () => {
    const r = await t.app.inject({ url: '/api/payment/prices' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ success: true, prices: DEFAULT_PRICES, currencies: ['usd', 'krw'] });
  });

  it('won checkouts: the won price and the methods of their mode (no PAYCO or Samsung Pay for a plan), in the page language; dollars carry no filter', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    const plan = await post(cookie, '/api/payment/checkout', { plan: 'deluxe', currency: 'krw' }, 'en');
    expect(plan.statusCode, plan.body).toBe(200);
    const planSession = stripeSessionOf(plan.json().checkout_url);
    expect(sentSession(planSession).body).toMatchObject({ mode: 'subscription', line_items: [{ price: 'price_deluxe_krw' }], allowed_payment_method_types: [...KRW_SUBSCRIPTION_METHODS], locale: 'en' });
    expect(fake.object(planSession)).toMatchObject({ currency: 'krw', amount_total: DEFAULT_PRICES.deluxe.krw, payment_method_types: [...KRW_SUBSCRIPTION_METHODS] });
    expect(fake.object(planSession).payment_method_types).not.toContain('payco');
    expect(fake.object(planSession).payment_method_types).not.toContain('samsung_pay');

    const pack = await post(cookie, '/api/payment/credit-checkout', { package: 'package4', currency: 'krw' });
    const packSession = stripeSessionOf(pack.json().checkout_url);
    expect(sentSession(packSession).body).toMatchObject({ mode: 'payment', line_items: [{ price: 'price_pack4_krw' }], allowed_payment_method_types: [...KRW_ONE_TIME_METHODS], locale: 'ko' });
    expect(fake.object(packSession)).toMatchObject({ currency: 'krw', amount_total: 28_000 });

    // No currency asked: won for a Korean page, dollars for an English one (and then no method filter).
    const ko = await post(cookie, '/api/payment/credit-checkout', { package: 'package1' });
    expect(fake.object(stripeSessionOf(ko.json().checkout_url))).toMatchObject({ currency: 'krw', amount_total: 7_000 });
    const en = await post(cookie, '/api/payment/credit-checkout', { package: 'package1' }, 'en');
    const enSession = stripeSessionOf(en.json().checkout_url);
    expect(fake.object(enSession)).toMatchObject({ currency: 'usd', amount_total: 500, payment_method_types: ['card'] });
    expect(sentSession(enSession).body).not.toHaveProperty('allowed_payment_method_types');
  });

  it('a pack bought in won with Kakao Pay: the same credits as in dollars, once; our books in won with the method and receipt; a refund takes them back once', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const { session, done, checkoutId } = await buyInWon(cookie, 'package3', 'kakao_pay');
    for (let i = 0; i < 3; i++) expect((await deliver('checkout.session.completed', session)).statusCode).toBe(200);
    expect((await books(user.id)).oneTime).toBe(300 + itemCredits('package3'));
    expect((await t.app.inject({ url: `/api/payment/checkout/${checkoutId}`, headers: { cookie } })).json().status).toBe('completed');

    const charge = fake.object(done.chargeId!) as { receipt_url: string; currency: string; amount: number };
    expect(charge).toMatchObject({ currency: 'krw', amount: 21_000 });
    expect(await paymentRow(session)).toMatchObject({
      kind: 'order', item: 'package3', status: 'paid', currency: 'krw', amountMinor: 21_000, method: 'kakao_pay', receiptUrl: charge.receipt_url,
      refundedMinor: 0, refundedAt: null, creditsGranted: itemCredits('package3'),
    });

    fake.refundOrder(session);
    expect((await deliver('charge.refunded', done.chargeId!)).json().outcome).toBe('reclaimed');
    expect((await deliver('charge.refunded', done.chargeId!)).json().outcome).not.toBe('reclaimed');
    expect((await deliver('checkout.session.completed', session)).json().outcome).not.toBe('granted');
    expect((await books(user.id)).oneTime).toBe(300);
    const refunded = await paymentRow(session);
    expect(refunded).toMatchObject({ status: 'refunded', currency: 'krw', refundedMinor: 21_000, creditsReclaimed: itemCredits('package3'), method: 'kakao_pay' });
    expect(refunded?.refundedAt).toBeInstanceOf(Date);
  });

  it('a Kakao Pay subscription in won renews: the second period credited once, its invoice in won', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const { done } = await subscribeThroughStripe({ t, fake, deliver }, cookie, 'basic', { currency: 'krw', method: 'kakao_pay' });
    expect((await books(user.id)).subscription).toBe(itemCredits('basic'));
    expect(await paymentRow(done.invoiceId!)).toMatchObject({ reason: 'initial', currency: 'krw', amountMinor: 12_600, method: 'kakao_pay', receiptUrl: fake.object(done.invoiceId!).hosted_invoice_url });

    const renewal = fake.renew(done.subscriptionId!)!;
    expect(fake.object(renewal)).toMatchObject({ currency: 'krw', amount_due: 12_600, billing_reason: 'subscription_cycle' });
    expect((await deliver('invoice.paid', renewal)).json().outcome).toBe('granted');
    expect((await deliver('invoice.paid', renewal)).json().outcome).not.toBe('granted');
    await deliver('customer.subscription.updated', done.subscriptionId!);
    expect((await books(user.id)).subscription).toBe(itemCredits('basic'));
    expect(await paymentRow(renewal)).toMatchObject({ reason: 'renewal', status: 'paid', currency: 'krw', amountMinor: 12_600, method: 'kakao_pay', creditsGranted: itemCredits('basic') });
    expect((await paymentsOf(user.id)).map((p) => p.currency)).toEqual(['krw', 'krw']);
  });

  it('an upgrade of a won subscription bills the won price of the new plan, prorated; a downgrade schedules the won price', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const { done } = await subscribeThroughStripe({ t, fake, deliver }, cookie, 'basic', { currency: 'krw', method: 'naver_pay' });
    const subscriptionId = done.subscriptionId!;
    fake.requests.length = 0;
    const up = await post(cookie, '/api/payment/change-plan', { plan: 'premium' });
    expect(up.json()).toMatchObject({ change: 'upgrade', plan: 'premium' });
    expect(fake.requestsTo('POST', `/v1/subscriptions/${subscriptionId}`)[0]?.body).toMatchObject({ items: [{ price: 'price_premium_krw' }], proration_behavior: 'always_invoice' });

    const upgrade = fake.object(subscriptionId).latest_invoice as string;
    const inv = fake.object(upgrade) as { currency: string; amount_due: number; lines: { data: Array<{ amount: number; currency: string }> } };
    expect(inv.currency).toBe('krw');
    expect(inv.lines.data.every((l) => l.currency === 'krw')).toBe(true);
    // Right after the purchase nearly the whole period is left: about ₩40,600 − ₩12,600, in whole won.
    expect(inv.amount_due).toBeGreaterThan(27_900);
    expect(inv.amount_due).toBeLessThanOrEqual(28_000);
    expect((await deliver('invoice.paid', upgrade)).json().outcome).toBe('granted');
    const granted = (await books(user.id)).subscription - itemCredits('basic');
    expect(granted).toBeGreaterThan(9_990);
    expect(granted).toBeLessThanOrEqual(itemCredits('premium') - itemCredits('basic'));
    expect(await paymentRow(upgrade)).toMatchObject({ reason: 'upgrade', currency: 'krw', amountMinor: inv.amount_due, method: 'naver_pay' });

    const down = await post(cookie, '/api/payment/change-plan', { plan: 'deluxe' });
    expect(down.json()).toMatchObject({ change: 'downgrade', plan: 'premium', nextPlan: 'deluxe' });
    const schedule = fake.object(fake.object(subscriptionId).schedule as string) as { phases: Array<{ items: Array<{ price: string }> }> };
    expect(schedule.phases.map((p) => p.items[0]?.price)).toEqual(['price_premium_krw', 'price_deluxe_krw']);
    const renewal = fake.renew(subscriptionId)!;
    expect(fake.object(renewal)).toMatchObject({ currency: 'krw', amount_due: 26_600 });
  });

  it('webhook signatures: forged and stale deliveries are refused and grant nothing; a replay is a duplicate; events out of order grant once', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const { session } = await buyInWon(cookie, 'package5', 'naver_pay');
    const object = fake.object(session);
    const send = (ev: { body: Buffer; headers: Record<string, string> }) => t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: ev.headers, payload: ev.body });

    for (const ev of [
      fake.signedEvent('checkout.session.completed', object, { secret: 'whsec_forged_by_someone' }),
      fake.signedEvent('checkout.session.completed', object, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
    ]) {
      const r = await send(ev);
      expect(r.statusCode).toBe(401);
      expect(r.json().code).toBe('WEBHOOK_SIGNATURE_INVALID');
    }
    expect((await books(user.id)).total).toBe(300);

    const genuine = fake.signedEvent('checkout.session.completed', object);
    expect((await send(genuine)).json().outcome).toBe('granted');
    expect((await send(genuine)).json().outcome).toBe('duplicate');
    // The same event re-signed later (Stripe's retry): still a duplicate.
    expect((await send(fake.signedEvent('checkout.session.completed', object, { id: genuine.id }))).json().outcome).toBe('duplicate');
    expect((await books(user.id)).oneTime).toBe(300 + itemCredits('package5'));

    // Out of order: a subscription's first invoice.paid before its checkout.session.completed, and an
    // old subscription.created after both. One grant.
    const other = await signUpAndLogin(t.app);
    const r = await post(other.cookie, '/api/payment/checkout', { plan: 'deluxe', currency: 'krw' });
    const planSession = stripeSessionOf(r.json().checkout_url);
    const created = fake.completeCheckout(planSession, { method: 'kakao_pay' });
    const oldCreated = fake.signedEvent('customer.subscription.created', fake.object(created.subscriptionId!));
    expect((await deliver('invoice.paid', created.invoiceId!)).json().outcome).toBe('granted');
    expect((await deliver('checkout.session.completed', planSession)).statusCode).toBe(200);
    expect((await send(oldCreated)).statusCode).toBe(200);
    expect((await books(other.user.id)).subscription).toBe(itemCredits('deluxe'));
    expect((await t.app.inject({ url: '/api/payment/subscription-status', headers: { cookie: other.cookie } })).json()).toMatchObject({ plan: 'deluxe' });

    // A refund known at Stripe before the completion event arrives: the order is first seen refunded
    // and grants nothing, nor takes anything.
    const third = await signUpAndLogin(t.app);
    const late = await buyInWon(third.cookie, 'package2', 'payco');
    fake.refundOrder(late.session);
    expect((await deliver('charge.refunded', late.done.chargeId!)).statusCode).toBe(200);
    expect((await deliver('checkout.session.completed', late.session)).json().outcome).not.toBe('granted');
    expect((await books(third.user.id)).total).toBe(300);
    expect(await paymentRow(late.session)).toMatchObject({ status: 'refunded', currency: 'krw', method: 'payco', creditsGranted: 0 });
  });

  it('50 concurrent deliveries of one won event grant once', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const { session } = await buyInWon(cookie, 'package2', 'samsung_pay');
    const ev = fake.signedEvent('checkout.session.completed', fake.object(session));
    const results = await Promise.all(Array.from({ length: 50 }, () => t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: ev.headers, payload: ev.body })));
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    expect(results.filter((r) => r.json().outcome === 'granted')).toHaveLength(1);
    expect((await books(user.id)).oneTime).toBe(300 + itemCredits('package2'));
    expect(await paymentsOf(user.id)).toHaveLength(1);
    expect(await paymentRow(session)).toMatchObject({ currency: 'krw', amountMinor: 14_000, method: 'samsung_pay', creditsGranted: itemCredits('package2') });
  });

  it('a failed renewal in won: past_due, the open invoice recorded in won, nothing granted', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const { done } = await subscribeThroughStripe({ t, fake, deliver }, cookie, 'basic', { currency: 'krw', method: 'kakao_pay' });
    const failed = fake.failRenewal(done.subscriptionId!)!;
    expect((await deliver('invoice.payment_failed', failed)).statusCode).toBe(200);
    expect((await deliver('customer.subscription.updated', done.subscriptionId!)).statusCode).toBe(200);
    const st = (await t.app.inject({ url: '/api/payment/subscription-status', headers: { cookie } })).json();
    expect(st.subscription.data.attributes.status).toBe('past_due');
    expect(st.subscription.data.attributes.urls.update_payment_method).toBe(fake.object(failed).hosted_invoice_url);
    expect((await books(user.id)).subscription).toBe(itemCredits('basic'));
    expect(await paymentRow(failed)).toMatchObject({ reason: 'renewal', currency: 'krw', amountMinor: 12_600, creditsGranted: 0 });
  });
});
