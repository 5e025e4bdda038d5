import { eq } from 'drizzle-orm';
import { packCredits, planCredits } from '@dewy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakePaddle } from '../../../test/fakes/fake-paddle.server';
import { PADDLE_TEST_PUBLIC_URL, startPaddleBillingApp, type PaddleBillingApp } from '../../../test/helpers/billing';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { billingPayments } from '../../db/schema';
import { cspHeaderValue } from '../../lib/http-headers';
import { getBalance, ledgerSums } from '../credits';
import { proratedCredits } from './billing.webhooks';
import { jsonForHtml } from './paddle.routes';
import { PADDLE_CHECKOUT_PATH } from './providers/paddle.provider';

/**
 * The billing service with the Paddle adapter against its fake API (decision 042), on PGlite and
 * PostgreSQL: Paddle-signed events into POST /api/payment/webhook give the same credits as the other
 * providers — a won pack paid with Kakao Pay, a Kakao Pay subscription and its renewals, an upgrade
 * prorated by Paddle's rate, a downgrade that keeps this period's plan, a scheduled cancel, refunds as
 * adjustments, a failed renewal — and replays, concurrent deliveries and out-of-order events grant
 * nothing extra. Also the checkout page Paddle's links open (GET /payment/paddle-checkout).
 */
describe.each(TEST_DATABASES)('billing with Paddle (fake) on $name', (kind) => {
  let t: TestApp;
  let fake: FakePaddle;
  let deliver: PaddleBillingApp['deliver'];
  let close: PaddleBillingApp['close'];
  beforeAll(async () => {
    ({ t, fake, deliver, close } = await startPaddleBillingApp(kind, { clientToken: 'test_dewy_page_token_0001' }));
  });
  afterAll(async () => {
    await close?.();
  });

  const books = async (userId: number) => {
    const b = await getBalance(t.ctx.database.db, userId);
    expect((await ledgerSums(t.ctx.database.db, userId)).total).toBe(b.total);
    return b;
  };
  const txnOf = (url: string) => {
    const id = new URL(url).searchParams.get('_ptxn');
    expect(id, url).toMatch(/^txn_[a-z\d]{26}$/);
    return id!;
  };
  const paymentOf = async (providerId: string) => (await t.ctx.database.db.select().from(billingPayments).where(eq(billingPayments.providerId, providerId)))[0]!;
  const status = async (cookie: string) => (await t.app.inject({ url: '/api/payment/subscription-status', headers: { cookie } })).json();
  const outcome = async (p: Promise<{ statusCode: number; json(): { outcome?: string } }>) => {
    const r = await p;
    expect(r.statusCode).toBe(200);
    return r.json().outcome;
  };

  /** A signed-in user subscribed to `plan` through Paddle (paid with `method`): checkout, payment, transaction.completed granted. */
  async function subscribe(plan: 'basic' | 'deluxe' | 'premium', o: { currency?: 'usd' | 'krw'; method?: string } = {}) {
    const { cookie, user } = await signUpAndLogin(t.app);
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/checkout', headers: { cookie }, payload: { plan, currency: o.currency ?? 'krw' } });
    expect(r.statusCode, r.body).toBe(200);
    const txn = txnOf(r.json().checkout_url);
    const { subscriptionId } = fake.completeCheckout(txn, { method: o.method ?? 'kakao_pay' });
    expect(await outcome(deliver('transaction.completed', txn))).toBe('granted');
    return { cookie, user, txn, subscriptionId: subscriptionId!, checkoutId: r.json().checkoutId as string };
  }

  it('a won pack paid with Kakao Pay: granted once (redeliveries and transaction.paid too), krw and kakao_pay recorded; a refund adjustment takes it back once', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const before = await books(user.id);
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/credit-checkout', headers: { cookie }, payload: { package: 'package3', currency: 'krw' } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().checkout_url).toMatch(new RegExp(`^${PADDLE_TEST_PUBLIC_URL}${PADDLE_CHECKOUT_PATH}\\?_ptxn=txn_`));
    const txn = txnOf(r.json().checkout_url);
    expect(fake.object(txn)).toMatchObject({ currency_code: 'KRW', custom_data: { user_id: String(user.id), checkout_id: r.json().checkoutId } });

    // Before payment: the transaction is open, nothing is granted.
    expect(await outcome(deliver('transaction.payment_failed', txn))).toBe('nothing');
    fake.completeCheckout(txn, { method: 'kakao_pay' });
    expect(await outcome(deliver('transaction.completed', txn))).toBe('granted');
    expect(await outcome(deliver('transaction.paid', txn))).toBe('nothing');
    expect((await books(user.id)).oneTime).toBe(before.oneTime + packCredits('package3'));
    expect(await paymentOf(txn)).toMatchObject({ kind: 'order', status: 'paid', currency: 'krw', method: 'kakao_pay', amountMinor: 21000, creditsGranted: packCredits('package3') });
    expect((await t.app.inject({ url: `/api/payment/checkout/${r.json().checkoutId}`, headers: { cookie } })).json()).toMatchObject({ status: 'completed', creditsGranted: packCredits('package3') });

    // The receipt: Paddle's invoice PDF links expire, so the history links our redirect, which asks Paddle
    // for a fresh link at the click; another account gets 404 and never reaches Paddle.
    const { id: paymentId } = await paymentOf(txn);
    const line = (await t.app.inject({ url: '/api/billing/history', headers: { cookie } })).json().entries[0];
    expect(line).toMatchObject({ paymentId, kind: 'purchase', receiptUrl: `/api/billing/receipts/${paymentId}/provider` });
    const go = await t.app.inject({ url: line.receiptUrl, headers: { cookie } });
    expect(go.statusCode).toBe(302);
    expect(go.headers.location).toMatch(new RegExp(`^https://paddle-invoices\\.example/${txn}\\.pdf\\?expires=\\d+$`));
    const other = await signUpAndLogin(t.app);
    expect((await t.app.inject({ url: line.receiptUrl, headers: { cookie: other.cookie } })).statusCode).toBe(404);

    const adj = fake.refund(txn);
    expect(await outcome(deliver('adjustment.created', adj))).toBe('reclaimed');
    expect(await outcome(deliver('adjustment.updated', adj))).toBe('nothing');
    expect((await books(user.id)).oneTime).toBe(before.oneTime);
    expect(await paymentOf(txn)).toMatchObject({ status: 'refunded', refundedMinor: 21000, creditsReclaimed: packCredits('package3') });
  });

  it('a redelivery of one event is a duplicate; 50 concurrent deliveries of one event grant once', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const before = await books(user.id);
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/credit-checkout', headers: { cookie }, payload: { package: 'package1', currency: 'krw' } });
    const txn = txnOf(r.json().checkout_url);
    fake.completeCheckout(txn, { method: 'naver_pay' });
    const ev = fake.signedEvent('transaction.completed', fake.object(txn));
    const send = () => t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: ev.headers, payload: ev.body });
    const answers = await Promise.all(Array.from({ length: 50 }, send));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    const outcomes = answers.map((a) => a.json().outcome as string);
    expect(outcomes.filter((o) => o === 'granted')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'granted').every((o) => o === 'duplicate')).toBe(true);
    expect(await outcome(send())).toBe('duplicate');
    // Paddle redelivers with the same event id (and a fresh signature): still a duplicate.
    expect(await outcome(deliver('transaction.completed', txn, { eventId: ev.id }))).toBe('duplicate');
    expect((await books(user.id)).oneTime).toBe(before.oneTime + packCredits('package1'));
  });

  it('a Kakao Pay subscription: subscription.updated before transaction.completed, then renewals credited once each', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/checkout', headers: { cookie }, payload: { plan: 'deluxe', currency: 'krw' } });
    const txn = txnOf(r.json().checkout_url);
    // A payment event before Paddle linked the subscription: refused (non-2xx), so Paddle delivers it again later.
    const early = fake.signedEvent('transaction.paid', fake.object(txn));
    const refused = await t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: early.headers, payload: early.body });
    expect(refused.statusCode).toBeGreaterThanOrEqual(500);
    const { subscriptionId } = fake.completeCheckout(txn, { method: 'kakao_pay' });
    // Out of order: the subscription's update before the payment's completion.
    expect(await outcome(deliver('subscription.updated', subscriptionId!))).toBe('synced');
    expect((await books(user.id)).subscription).toBe(0);
    expect(await outcome(deliver('transaction.completed', txn))).toBe('granted');
    expect(await outcome(deliver('subscription.created', subscriptionId!))).toBe('synced');
    expect(await outcome(deliver('transaction.paid', txn, { eventId: early.id }))).toBe('nothing'); // Paddle's retry of the refused event
    expect((await books(user.id)).subscription).toBe(planCredits('deluxe'));
    expect(await status(cookie)).toMatchObject({ hasSubscription: true, plan: 'deluxe', nextPlan: null });
    expect(await paymentOf(txn)).toMatchObject({ kind: 'invoice', reason: 'initial', currency: 'krw', method: 'kakao_pay', amountMinor: 26600 });
    expect((await t.app.inject({ url: `/api/payment/checkout/${r.json().checkoutId}`, headers: { cookie } })).json().status).toBe('completed');

    const renewal = fake.renew(subscriptionId!)!;
    expect(await outcome(deliver('transaction.completed', renewal))).toBe('granted');
    expect(await outcome(deliver('transaction.paid', renewal))).toBe('nothing');
    expect(await outcome(deliver('subscription.updated', subscriptionId!))).toBe('synced');
    // The first period's credits expired, the second period's were granted once.
    expect((await books(user.id)).subscription).toBe(planCredits('deluxe'));
    expect(await paymentOf(renewal)).toMatchObject({ reason: 'renewal', method: 'kakao_pay', currency: 'krw', creditsGranted: planCredits('deluxe') });
  });

  it('an upgrade is charged and credited by Paddle\'s proration rate', async () => {
    const { cookie, user, subscriptionId } = await subscribe('basic');
    fake.advanceClock(12 * 86_400); // 18 of the fake's 30 days left
    const up = await t.app.inject({ method: 'POST', url: '/api/payment/change-plan', headers: { cookie }, payload: { plan: 'premium' } });
    expect(up.json()).toMatchObject({ change: 'upgrade', plan: 'premium' });
    const upgrade = fake.transactionsOf(subscriptionId).at(-1)!;
    const raw = fake.object(upgrade) as { origin: string; items: Array<{ proration: { rate: string } }> };
    expect(raw.origin).toBe('subscription_update');
    const rate = Number(raw.items[0]!.proration.rate);
    expect(rate).toBeCloseTo(0.6, 2);
    expect(await outcome(deliver('transaction.completed', upgrade))).toBe('granted');
    expect(await outcome(deliver('transaction.completed', upgrade))).toBe('nothing');
    const expected = proratedCredits(planCredits('premium') - planCredits('basic'), rate);
    expect((await books(user.id)).subscription).toBe(planCredits('basic') + expected);
    expect(await paymentOf(upgrade)).toMatchObject({ reason: 'upgrade', currency: 'krw', creditsGranted: expected });
    expect(await status(cookie)).toMatchObject({ plan: 'premium', nextPlan: null });
  });

  it('a downgrade is scheduled: this period keeps its plan and credits, the renewal bills and credits the lower plan', async () => {
    const { cookie, user, subscriptionId } = await subscribe('premium', { currency: 'usd', method: 'card' });
    const down = await t.app.inject({ method: 'POST', url: '/api/payment/change-plan', headers: { cookie }, payload: { plan: 'basic' } });
    expect(down.json()).toMatchObject({ change: 'downgrade', plan: 'premium', nextPlan: 'basic' });
    expect(await outcome(deliver('subscription.updated', subscriptionId))).toBe('synced');
    const st = await status(cookie);
    expect(st).toMatchObject({ plan: 'premium', nextPlan: 'basic' });
    expect(st.subscription.data.scheduled_change).toMatchObject({ action: 'downgrade', plan: 'basic' });
    expect((await books(user.id)).subscription).toBe(planCredits('premium'));
    expect(fake.transactionsOf(subscriptionId)).toHaveLength(1); // nothing charged now

    const renewal = fake.renew(subscriptionId)!;
    expect(await outcome(deliver('transaction.completed', renewal))).toBe('granted');
    expect(await outcome(deliver('subscription.updated', subscriptionId))).toBe('synced');
    expect((await books(user.id)).subscription).toBe(planCredits('basic'));
    expect(await paymentOf(renewal)).toMatchObject({ item: 'basic', amountMinor: 900, currency: 'usd' });
    expect(await status(cookie)).toMatchObject({ plan: 'basic', nextPlan: null });
  });

  it('a scheduled cancel shows as scheduled_change.action=cancel; resume removes it; at the period end the subscription ends', async () => {
    const { cookie, subscriptionId } = await subscribe('basic');
    const c = await t.app.inject({ method: 'POST', url: '/api/payment/cancel-subscription', headers: { cookie }, payload: {} });
    expect(c.json()).toMatchObject({ scheduled: true });
    expect(await outcome(deliver('subscription.updated', subscriptionId))).toBe('synced');
    let st = await status(cookie);
    expect(st.subscription.data.scheduled_change.action).toBe('cancel');
    expect(st.subscription.data.attributes.status).toBe('cancelled');

    expect((await t.app.inject({ method: 'POST', url: '/api/payment/resume-subscription', headers: { cookie }, payload: {} })).statusCode).toBe(200);
    expect((fake.object(subscriptionId) as { scheduled_change: unknown }).scheduled_change).toBeNull();
    expect((await status(cookie)).subscription.data.scheduled_change).toBeNull();

    await t.app.inject({ method: 'POST', url: '/api/payment/cancel-subscription', headers: { cookie }, payload: {} });
    expect(fake.renew(subscriptionId)).toBeNull();
    expect(await outcome(deliver('subscription.canceled', subscriptionId))).toBe('synced');
    st = await status(cookie);
    expect(st).toMatchObject({ hasSubscription: false, plan: 'free' });
    expect(st.subscription.data.attributes.status).toBe('expired');
  });

  it('a refund adjustment of an invoice takes its credits back once approved, once', async () => {
    const { user, txn } = await subscribe('deluxe');
    const adj = fake.refund(txn, { pending: true });
    expect(await outcome(deliver('adjustment.created', adj))).toBe('nothing'); // pending approval: no money moved yet
    expect((await books(user.id)).subscription).toBe(planCredits('deluxe'));
    fake.approveAdjustment(adj);
    expect(await outcome(deliver('adjustment.updated', adj))).toBe('reclaimed');
    expect(await outcome(deliver('adjustment.updated', adj))).toBe('nothing');
    expect((await books(user.id)).subscription).toBe(0);
  });

  it('a failed renewal: past_due, no renewal date, and the update-payment link opens our checkout page for the past-due transaction', async () => {
    const { cookie, subscriptionId } = await subscribe('basic');
    const failed = fake.failRenewal(subscriptionId)!;
    expect(await outcome(deliver('transaction.payment_failed', failed))).toBe('nothing');
    expect(await outcome(deliver('subscription.past_due', subscriptionId))).toBe('synced');
    const st = await status(cookie);
    expect(st.subscription.data.attributes.status).toBe('past_due');
    expect(st.subscription.data.attributes.renews_at).toBeNull();
    expect(st.subscription.data.attributes.urls.update_payment_method).toContain(`_ptxn=${failed}`);
    expect(await paymentOf(failed)).toMatchObject({ status: 'failed', reason: 'renewal' });
  });

  describe('the checkout page', () => {
    it('carries the client token, the sandbox environment, the transaction and our success page; only this page allows Paddle in its CSP', async () => {
      const { cookie } = await signUpAndLogin(t.app);
      const r = await t.app.inject({ method: 'POST', url: '/api/payment/credit-checkout', headers: { cookie }, payload: { package: 'package2' } });
      const url = new URL(r.json().checkout_url as string);
      const txn = url.searchParams.get('_ptxn')!;
      const page = await t.app.inject({ url: `${url.pathname}${url.search}` });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toContain('<html lang="ko">');
      expect(page.body).toContain('"token":"test_dewy_page_token_0001"');
      expect(page.body).toContain('"environment":"sandbox"');
      expect(page.body).toContain(`"transactionId":"${txn}"`);
      expect(page.body).toContain(`"successUrl":"${t.ctx.config.publicUrl}/payment/success?checkout=${r.json().checkoutId}"`);
      expect(page.body).toContain('<script src="https://cdn.paddle.com/paddle/v2/paddle.js"></script>');
      expect(page.body).not.toMatch(/<script>/); // no inline script
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self' https://cdn.paddle.com https://sandbox-cdn.paddle.com;");
      expect(csp).toContain('frame-src https://sandbox-buy.paddle.com');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);

      const js = await t.app.inject({ url: `${PADDLE_CHECKOUT_PATH}.js` });
      expect(js.statusCode).toBe(200);
      expect(js.body).toContain("Paddle.Environment.set('sandbox')");
      expect(js.body).toContain('Paddle.Initialize');

      // Every other route keeps the app's own policy.
      const appCsp = cspHeaderValue({ storageHosts: [] });
      for (const other of ['/api/payment/prices', '/api/auth/check', '/sandbox/checkout/x']) {
        expect((await t.app.inject({ url: other })).headers['content-security-policy'], other).toBe(appCsp);
      }
      expect(js.headers['content-security-policy']).toBe(appCsp);
    });

    it('in English under /en; a transaction that is not a checkout of ours returns to My Page; a malformed id is refused, never echoed', async () => {
      const { cookie } = await signUpAndLogin(t.app);
      const r = await t.app.inject({ method: 'POST', url: '/api/payment/checkout', headers: { cookie, 'accept-language': 'en' }, payload: { plan: 'basic', currency: 'usd' } });
      const url = new URL(r.json().checkout_url as string);
      expect(url.pathname).toBe(`/en${PADDLE_CHECKOUT_PATH}`);
      const en = await t.app.inject({ url: `${url.pathname}${url.search}` });
      expect(en.body).toContain('<html lang="en">');
      expect(en.body).toContain(`"successUrl":"${t.ctx.config.publicUrl}/en/payment/success?checkout=${r.json().checkoutId}"`);
      expect(en.body).toContain(`"cancelUrl":"${t.ctx.config.publicUrl}/en/payment/basic?payment=cancelled\\u0026checkout=${r.json().checkoutId}"`);

      const other = await t.app.inject({ url: `${PADDLE_CHECKOUT_PATH}?_ptxn=txn_01zzzzzzzzzzzzzzzzzzzzzzzz` });
      expect(other.statusCode).toBe(200);
      expect(other.body).toContain(`"successUrl":"${t.ctx.config.publicUrl}/mypage?refresh=`);

      const evil = '</script><script>alert(1)</script>';
      const bad = await t.app.inject({ url: `${PADDLE_CHECKOUT_PATH}?_ptxn=${encodeURIComponent(evil)}` });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).not.toContain('alert(1)');
      expect((await t.app.inject({ url: PADDLE_CHECKOUT_PATH })).statusCode).toBe(400);
      // What the page embeds can never close its script element or start markup.
      expect(jsonForHtml({ v: evil, amp: 'a&b', ls: '\u2028' })).not.toMatch(/[<>&\u2028]/);
    });

    it('is not registered with another provider', async () => {
      const sandbox = await createTestApp(kind);
      try {
        expect((await sandbox.app.inject({ url: `${PADDLE_CHECKOUT_PATH}?_ptxn=txn_01zzzzzzzzzzzzzzzzzzzzzzzz` })).statusCode).toBe(404);
      } finally {
        await sandbox.close();
      }
    });
  });
});
