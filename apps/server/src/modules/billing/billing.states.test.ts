import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FakeLemonSqueezy } from '../../../test/fakes/fake-lemonsqueezy.server';
import type { FakeStripe } from '../../../test/fakes/fake-stripe.server';
import {
  paySandboxCheckout,
  startLemonSqueezyBillingApp,
  startSandboxBillingApp,
  startStripeBillingApp,
  subscribeThroughStripe,
  type LemonSqueezyBillingApp,
  type StripeBillingApp,
} from '../../../test/helpers/billing';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { billingPayments, users } from '../../db/schema';
import type { MailMessage, MailProvider } from '../../providers/mail/mail.provider';
import { getBalance } from '../credits';
import type { SandboxEventBody, SandboxProvider } from './providers/sandbox.provider';
import { billingMailClaimed, failedMailKey } from './billing-mails';

/**
 * What the customer sees about money (issue 21 points 12, 13, 16; decision 030), on PGlite and
 * PostgreSQL, for every adapter through its fake: a failed renewal is `past_due` in the subscription
 * status (no next renewal date, the provider's update-payment link) and mails the owner once per
 * failed invoice however many times (and in parallel) the webhooks arrive; a scheduled downgrade can be
 * withdrawn (the next renewal bills the old plan again) and withdrawing with none scheduled is refused
 * with nothing changed; deleting the account cancels the subscription at the provider.
 */

/** A mail transport that keeps every message (the failed-payment mails are counted by subject). */
function capturingMail(): MailProvider & { sent: MailMessage[]; failedFor(to: string): MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    kind: 'outbox',
    sent,
    async send(m) {
      sent.push(m);
      return { messageId: `<${sent.length}@test>` };
    },
    async close() {},
    failedFor: (to) => sent.filter((m) => m.to === to && /결제에 실패|payment failed/.test(m.subject)),
  };
}

describe.each(TEST_DATABASES)('billing states on $name', (kind) => {
  describe('sandbox', () => {
    let t: TestApp;
    let sandbox: SandboxProvider;
    const mail = capturingMail();
    beforeAll(async () => {
      ({ t, sandbox } = await startSandboxBillingApp(kind, { mail }));
    });
    afterAll(async () => {
      await t?.close();
    });

    const post = (cookie: string, url: string, payload: object = {}, lang = 'ko') => t.app.inject({ method: 'POST', url, headers: { cookie, 'accept-language': lang }, payload });
    const status = async (cookie: string) => (await t.app.inject({ url: '/api/payment/subscription-status', headers: { cookie } })).json();

    async function subscribe(plan: string) {
      const u = await signUpAndLogin(t.app, undefined, undefined, { verify: false });
      // In dollars: the renewal amounts below are the dollar list prices (a Korean request defaults to won).
      const co = (await post(u.cookie, '/api/payment/checkout', { plan, currency: 'usd' })).json() as { checkout_url: string };
      const paid = await paySandboxCheckout(t, co.checkout_url, '4242424242424242');
      expect(paid.statusCode).toBe(303);
      const { subscriptionId } = await sandbox.latestOf(u.user.id);
      return { ...u, subscriptionId: subscriptionId! };
    }

    /** A sandbox event about `object`, signed now (a replay of a delivery, or a fresh event id). */
    function event(type: string, object: SandboxEventBody['object'], userId: number, id = `evt_${Math.random().toString(16).slice(2)}`) {
      const body = Buffer.from(JSON.stringify({ id, type, created: Math.floor(Date.now() / 1000), object, user_id: userId, checkout_id: null } satisfies SandboxEventBody));
      return { body, headers: sandbox.sign(body) };
    }
    const deliver = (e: { body: Buffer; headers: Record<string, string> }) => t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: e.headers, payload: e.body });

    it('a failed renewal reads past_due with no next renewal date and the retry link; the owner is mailed once under 10 parallel replays; paying on the link restores it', async () => {
      const { cookie, user, email, subscriptionId } = await subscribe('basic');
      expect((await status(cookie)).subscription.data.attributes).toMatchObject({ status: 'active', urls: { update_payment_method: null } });

      const { invoiceId } = await sandbox.failRenewal(subscriptionId);
      await sandbox.idle();
      const st = await status(cookie);
      expect(st.subscription.data.attributes.status).toBe('past_due');
      expect(st.subscription.data.attributes.renews_at).toBeNull();
      expect(st.user.next_renewal_date).toBeNull();
      // The session's user (every page's header and My Page read it first) promises no renewal either.
      const check = (await t.app.inject({ method: 'GET', url: '/api/auth/check', headers: { cookie } })).json();
      expect(check.user.next_renewal_date).toBeNull();
      expect(st.subscription.data.attributes.urls.update_payment_method).toBe(`${t.ctx.config.publicUrl}/sandbox/invoice/${invoiceId}`);
      expect(mail.failedFor(email)).toHaveLength(1);

      // 10 parallel replays of one delivery, and 10 fresh events about the same invoice: still one mail.
      const replay = event('invoice.payment_failed', { kind: 'invoice', id: invoiceId }, user.id);
      const fresh = Array.from({ length: 10 }, () => event('invoice.payment_failed', { kind: 'invoice', id: invoiceId }, user.id));
      const answers = await Promise.all([...Array.from({ length: 10 }, () => deliver(replay)), ...fresh.map(deliver)]);
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      const mails = mail.failedFor(email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('[Dewy] 구독 결제에 실패했습니다');
      expect(mails[0]!.text).toContain(`/sandbox/invoice/${invoiceId}`);
      const row = (await t.ctx.database.db.select().from(billingPayments).where(and(eq(billingPayments.kind, 'invoice'), eq(billingPayments.providerId, invoiceId))))[0]!;
      expect(row.status).toBe('failed');
      expect(await billingMailClaimed(t.ctx.database, 'renewal_failed', failedMailKey('sandbox', invoiceId))).toBe(true);

      // The retry page: a declined card leaves it past due, the approved one pays the period.
      const page = await t.app.inject({ url: `/sandbox/invoice/${invoiceId}` });
      expect(page.statusCode).toBe(200);
      const declined = await t.app.inject({ method: 'POST', url: `/sandbox/invoice/${invoiceId}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'card=4000000000000002' });
      expect(declined.statusCode).toBe(400);
      const before = (await getBalance(t.ctx.database.db, user.id)).subscription;
      const ok = await t.app.inject({ method: 'POST', url: `/sandbox/invoice/${invoiceId}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'card=4242424242424242' });
      expect(ok.statusCode).toBe(303);
      expect(ok.headers.location).toContain('/mypage?refresh=');
      await sandbox.idle();
      const after = await status(cookie);
      expect(after.subscription.data.attributes).toMatchObject({ status: 'active', urls: { update_payment_method: null } });
      expect(after.user.next_renewal_date).not.toBeNull();
      expect(before).toBe(4500);
      expect((await getBalance(t.ctx.database.db, user.id)).subscription).toBe(4500); // the new period's credits, the old expired
      expect(mail.failedFor(email)).toHaveLength(1);
    });

    it('the failed-payment mail is in the owner\'s language', async () => {
      const { user, email, subscriptionId } = await subscribe('deluxe');
      await t.ctx.database.db.update(users).set({ locale: 'en' }).where(eq(users.id, user.id));
      await sandbox.failRenewal(subscriptionId);
      await sandbox.idle();
      const mails = mail.failedFor(email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('[Dewy] Your subscription payment failed');
      expect(mails[0]!.text).toContain('Deluxe');
    });

    it('a scheduled downgrade is withdrawn: the next renewal bills the old plan again; with none scheduled it is refused and nothing changes', async () => {
      const { cookie, user, subscriptionId } = await subscribe('deluxe');
      const none = await post(cookie, '/api/payment/withdraw-downgrade', {}, 'en');
      expect(none.statusCode).toBe(409);
      expect(none.json()).toMatchObject({ code: 'NO_SCHEDULED_CHANGE', message: 'No plan change is scheduled.' });
      expect((await post(cookie, '/api/payment/withdraw-downgrade')).json().message).toBe('예약된 플랜 변경이 없습니다.');

      expect((await post(cookie, '/api/payment/change-plan', { plan: 'basic' })).json()).toMatchObject({ change: 'downgrade', nextPlan: 'basic' });
      await sandbox.idle();
      expect(await status(cookie)).toMatchObject({ plan: 'deluxe', nextPlan: 'basic' });
      const w = await post(cookie, '/api/payment/withdraw-downgrade');
      expect(w.statusCode, w.body).toBe(200);
      expect(w.json()).toMatchObject({ success: true, plan: 'deluxe', nextPlan: null, message: '예약된 플랜 변경이 취소되었습니다.' });
      await sandbox.idle();
      const st = await status(cookie);
      expect(st).toMatchObject({ plan: 'deluxe', nextPlan: null });
      expect(st.subscription.data.scheduled_change).toBeNull();
      expect((await post(cookie, '/api/payment/withdraw-downgrade')).statusCode).toBe(409);

      const { invoiceId } = await sandbox.renew(subscriptionId);
      await sandbox.idle();
      expect(await sandbox.getInvoice(invoiceId!)).toMatchObject({ plan: 'deluxe', amountMinor: 1900 });
      expect((await getBalance(t.ctx.database.db, user.id)).subscription).toBe(9500);
    });
  });

  describe('Stripe (fake)', () => {
    let t: TestApp;
    let fake: FakeStripe;
    let deliver: StripeBillingApp['deliver'];
    let close: StripeBillingApp['close'];
    const mail = capturingMail();
    beforeAll(async () => {
      ({ t, fake, deliver, close } = await startStripeBillingApp(kind, { secretKey: 'sk_test_dewy_billing_states_0001', webhookSecret: 'whsec_dewy_billing_states', mail }));
    });
    afterAll(async () => {
      await close?.();
    });

    const post = (cookie: string, url: string, payload: object = {}) => t.app.inject({ method: 'POST', url, headers: { cookie }, payload });
    const status = async (cookie: string) => (await t.app.inject({ url: '/api/payment/subscription-status', headers: { cookie } })).json();

    async function subscribe(plan: string) {
      const u = await signUpAndLogin(t.app, undefined, 'stripe-pass-1', { verify: false });
      const { done } = await subscribeThroughStripe({ t, fake, deliver }, u.cookie, plan);
      return { ...u, subscriptionId: done.subscriptionId! };
    }

    it('a failed renewal: past_due with the open invoice\'s hosted page; one mail under 10 parallel deliveries', async () => {
      const { cookie, email, subscriptionId } = await subscribe('basic');
      const invoiceId = fake.failRenewal(subscriptionId)!;
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? deliver('customer.subscription.updated', subscriptionId) : deliver('invoice.payment_failed', invoiceId))));
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      const st = await status(cookie);
      expect(st.subscription.data.attributes.status).toBe('past_due');
      expect(st.user.next_renewal_date).toBeNull();
      expect(st.subscription.data.attributes.urls.update_payment_method).toBe(`${fake.origin}/i/${invoiceId}`);
      expect(mail.failedFor(email)).toHaveLength(1);
      expect(mail.failedFor(email)[0]!.text).toContain(`${fake.origin}/i/${invoiceId}`);
    });

    it('a scheduled downgrade is withdrawn by releasing the schedule: the next renewal bills the old plan again', async () => {
      const { cookie, user, subscriptionId } = await subscribe('deluxe');
      expect((await post(cookie, '/api/payment/withdraw-downgrade')).statusCode).toBe(409);
      expect((await post(cookie, '/api/payment/change-plan', { plan: 'basic' })).json()).toMatchObject({ nextPlan: 'basic' });
      const w = await post(cookie, '/api/payment/withdraw-downgrade');
      expect(w.statusCode, w.body).toBe(200);
      expect(w.json()).toMatchObject({ plan: 'deluxe', nextPlan: null });
      expect(fake.requestsTo('POST', /\/v1\/subscription_schedules\/\w+\/release$/).length).toBeGreaterThan(0);
      expect(await status(cookie)).toMatchObject({ plan: 'deluxe', nextPlan: null });
      const renewal = fake.renew(subscriptionId)!;
      expect(fake.object(renewal)).toMatchObject({ total: 1900 });
      expect((await deliver('invoice.paid', renewal)).json().outcome).toBe('granted');
      expect((await getBalance(t.ctx.database.db, user.id)).subscription).toBe(9500);
    });

    it('deleting the account cancels the subscription at Stripe', async () => {
      const { cookie, subscriptionId } = await subscribe('basic');
      const r = await post(cookie, '/api/account/delete', { password: 'stripe-pass-1' });
      expect(r.json()).toMatchObject({ success: true, subscriptionCancelled: true });
      expect(fake.object(subscriptionId)).toMatchObject({ cancel_at_period_end: true });
    });
  });

  describe('Lemon Squeezy (fake)', () => {
    let t: TestApp;
    let fake: FakeLemonSqueezy;
    let deliver: LemonSqueezyBillingApp['deliver'];
    let lastCheckout: LemonSqueezyBillingApp['lastCheckout'];
    let close: LemonSqueezyBillingApp['close'];
    const mail = capturingMail();
    beforeAll(async () => {
      ({ t, fake, deliver, lastCheckout, close } = await startLemonSqueezyBillingApp(kind, { mail }));
    });
    afterAll(async () => {
      await close?.();
    });

    const post = (cookie: string, url: string, payload: object = {}) => t.app.inject({ method: 'POST', url, headers: { cookie }, payload });
    const status = async (cookie: string) => (await t.app.inject({ url: '/api/payment/subscription-status', headers: { cookie } })).json();

    async function subscribe(plan: string) {
      const u = await signUpAndLogin(t.app, undefined, 'ls-pass-1', { verify: false });
      await post(u.cookie, '/api/payment/checkout', { plan });
      const done = fake.completeCheckout(lastCheckout());
      expect((await deliver('subscription_created', done.subscription!)).statusCode).toBe(200);
      expect((await deliver('subscription_payment_success', done.invoice!)).statusCode).toBe(200);
      return { ...u, subscription: done.subscription! };
    }

    it('a failed renewal: past_due with LS\'s update-payment page; one mail under 10 parallel deliveries', async () => {
      const { cookie, email, subscription } = await subscribe('basic');
      const invoice = fake.failRenewal(subscription.id);
      const sub = fake.subscriptions.get(subscription.id)!;
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? deliver('subscription_updated', sub) : deliver('subscription_payment_failed', invoice))));
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      const st = await status(cookie);
      expect(st.subscription.data.attributes.status).toBe('past_due');
      expect(st.user.next_renewal_date).toBeNull();
      expect(st.subscription.data.attributes.urls.update_payment_method).toBe(`${fake.origin}/subscription/${subscription.id}/payment-details`);
      expect(mail.failedFor(email)).toHaveLength(1);
    });

    it('a scheduled downgrade is withdrawn by switching the variant back without proration: the next renewal bills the old plan again', async () => {
      const { cookie, user, subscription } = await subscribe('deluxe');
      expect((await post(cookie, '/api/payment/withdraw-downgrade')).statusCode).toBe(409);
      expect((await post(cookie, '/api/payment/change-plan', { plan: 'basic' })).json()).toMatchObject({ nextPlan: 'basic' });
      const invoicesBefore = fake.invoices.size;
      const w = await post(cookie, '/api/payment/withdraw-downgrade');
      expect(w.statusCode, w.body).toBe(200);
      expect(w.json()).toMatchObject({ plan: 'deluxe', nextPlan: null });
      const patch = fake.requests.filter((r) => r.method === 'PATCH').at(-1)!;
      expect((patch.body as { data: { attributes: object } }).data.attributes).toEqual({ variant_id: 102, disable_prorations: true });
      expect(fake.invoices.size).toBe(invoicesBefore); // nothing charged now
      expect(await status(cookie)).toMatchObject({ plan: 'deluxe', nextPlan: null });
      const renewal = fake.renew(subscription.id);
      expect(renewal.attributes.total).toBe(1900);
      expect((await deliver('subscription_payment_success', renewal)).json().outcome).toBe('granted');
      expect((await getBalance(t.ctx.database.db, user.id)).subscription).toBe(9500);
    });

    it('deleting the account cancels the subscription at Lemon Squeezy', async () => {
      const { cookie, subscription } = await subscribe('basic');
      const r = await post(cookie, '/api/account/delete', { password: 'ls-pass-1' });
      expect(r.json()).toMatchObject({ success: true, subscriptionCancelled: true });
      expect(fake.subscriptions.get(subscription.id)!.attributes).toMatchObject({ status: 'cancelled', cancelled: true });
    });
  });
});
