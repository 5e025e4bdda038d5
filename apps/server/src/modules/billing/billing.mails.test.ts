import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FakeLemonSqueezy } from '../../../test/fakes/fake-lemonsqueezy.server';
import type { FakeStripe } from '../../../test/fakes/fake-stripe.server';
import {
  sandboxOperatorAuth,
  startLemonSqueezyBillingApp,
  startSandboxBillingApp,
  startStripeBillingApp,
  stripeSessionOf,
  type LemonSqueezyBillingApp,
  type StripeBillingApp,
} from '../../../test/helpers/billing';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { billingEvents, billingPayments, subscriptions, users } from '../../db/schema';
import type { MailMessage, MailProvider } from '../../providers/mail/mail.provider';
import { mailDate } from '../../providers/mail/templates';
import { getBalance } from '../credits';
import type { SandboxProvider } from './providers/sandbox.provider';
import { billingMailClaimed, cancelMailKey, endedMailKey, paymentMailKey } from './billing-mails';

/**
 * The billing mails (issue 25, decision 041) on PGlite and PostgreSQL: each of the six mails through
 * the sandbox (its checkout page with the Korean methods in won, its operator actions), in Korean and
 * English with amounts in won and dollars; one mail per event however the webhooks arrive (50 at once,
 * replays, our API beside the provider's webhook); a failed send is retried by the next delivery; a
 * refused duplicate subscription mails only its refund; deleted or address-less users get nothing;
 * and a purchase through the Stripe and Lemon Squeezy fakes mails once.
 */

const VERIFY_SUBJECT = /인증해주세요|verify your e-mail/;

/** A mail transport that keeps every message and fails the next `failNext(n)` sends. */
function capturingMail(): MailProvider & { sent: MailMessage[]; failNext(n?: number): void; billingTo(to: string): MailMessage[] } {
  const sent: MailMessage[] = [];
  let failures = 0;
  return {
    kind: 'outbox',
    sent,
    async send(m) {
      if (failures > 0) {
        failures--;
        throw new Error('mail transport down');
      }
      sent.push(m);
      return { messageId: `<${sent.length}@test>` };
    },
    async close() {},
    failNext(n = 1) {
      failures = n;
    },
    billingTo: (to) => sent.filter((m) => m.to === to && !VERIFY_SUBJECT.test(m.subject)),
  };
}

const SUBJECTS = {
  ko: {
    purchase: '[Dewy] 결제가 완료되었습니다',
    renewal: '[Dewy] 구독이 갱신되었습니다',
    failed: '[Dewy] 구독 결제에 실패했습니다',
    refund: '[Dewy] 환불이 처리되었습니다',
    cancel: '[Dewy] 구독 해지가 예약되었습니다',
    ended: '[Dewy] 구독이 종료되었습니다',
  },
  en: {
    purchase: '[Dewy] Your payment is complete',
    renewal: '[Dewy] Your subscription has renewed',
    failed: '[Dewy] Your subscription payment failed',
    refund: '[Dewy] Your refund has been processed',
    cancel: '[Dewy] Your subscription cancellation is scheduled',
    ended: '[Dewy] Your subscription has ended',
  },
} as const;

describe.each(TEST_DATABASES)('billing mails on $name', (kind) => {
  describe('sandbox', () => {
    let t: TestApp;
    let sandbox: SandboxProvider;
    const mail = capturingMail();
    /** Every webhook body the sandbox sent; while `hold` is set they are kept instead of delivered. */
    const sent: Buffer[] = [];
    let hold = false;
    beforeAll(async () => {
      ({ t, sandbox } = await startSandboxBillingApp(kind, { mail }));
      sandbox.setDeliverer(async (body, headers) => {
        sent.push(body);
        if (hold) return 200;
        return (await t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers, payload: body })).statusCode;
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    const db = () => t.ctx.database.db;
    const post = (cookie: string, url: string, payload: object, lang: 'ko' | 'en') => t.app.inject({ method: 'POST', url, headers: { cookie, 'accept-language': lang }, payload });
    /** Delivers a body the sandbox sent, signed now (a provider's redelivery of the same event). */
    const redeliver = (body: Buffer) => t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: sandbox.sign(body), payload: body });
    const sentAbout = (objectId: string) => sent.filter((b) => (JSON.parse(b.toString('utf8')) as { object: { id: string } | null }).object?.id === objectId);
    const operator = async (action: string, email: string) => {
      const r = await t.app.inject({ method: 'POST', url: '/api/admin/billing/sandbox', headers: { authorization: sandboxOperatorAuth(t) }, payload: { action, email } });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().result as Record<string, unknown>;
    };

    async function customer(locale: 'ko' | 'en') {
      const u = await signUpAndLogin(t.app, undefined, undefined, { verify: false });
      await db().update(users).set({ locale }).where(eq(users.id, u.user.id));
      return u;
    }

    /** Opens a checkout in `currency` and pays it on the sandbox page with `method` (the test card for `card`). */
    async function buy(cookie: string, locale: 'ko' | 'en', item: { plan: string } | { package: string }, currency: 'krw' | 'usd', method: string) {
      const url = 'plan' in item ? '/api/payment/checkout' : '/api/payment/credit-checkout';
      const r = await post(cookie, url, { ...item, currency }, locale);
      expect(r.statusCode, r.body).toBe(200);
      const form = await t.app.inject({
        method: 'POST',
        url: r.json().checkout_url as string,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ card: '4242424242424242', method, action: 'pay' }).toString(),
      });
      expect(form.statusCode, form.body).toBe(303);
      await sandbox.idle();
    }

    const paymentsOf = async (userId: number) => db().select().from(billingPayments).where(eq(billingPayments.userId, userId)).orderBy(billingPayments.id);
    const subscriptionOf = async (userId: number) => (await db().select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(subscriptions.id))[0]!;
    const subjectsOf = (email: string) => mail.billingTo(email).map((m) => m.subject);

    it.each([
      { locale: 'ko' as const, currency: 'krw' as const, method: 'naver_pay', methodName: '네이버페이', price: '₩12,600', credits: '4,500개', full: '전액', base: '' },
      { locale: 'en' as const, currency: 'usd' as const, method: 'card', methodName: 'Card', price: '$9', credits: '4,500', full: 'in full', base: '/en' },
    ])('a subscription\'s life in $locale, paid in $currency: purchase, renewal, refund, failed renewal, cancellation, end — each mailed once', async (c) => {
      const { cookie, user, email } = await customer(c.locale);
      const S = SUBJECTS[c.locale];
      const site = `${t.ctx.config.publicUrl}${c.base}`;

      await buy(cookie, c.locale, { plan: 'basic' }, c.currency, c.method);
      const [first] = await paymentsOf(user.id);
      expect(first).toMatchObject({ kind: 'invoice', reason: 'initial', currency: c.currency, method: c.method, creditsGranted: 4500 });
      expect(subjectsOf(email)).toEqual([S.purchase]);
      const bought = mail.billingTo(email)[0]!;
      expect(bought.text).toContain(c.price);
      expect(bought.text).toContain(c.methodName);
      expect(bought.text).toContain(c.credits);
      expect(bought.text).toContain(c.locale === 'ko' ? '베이직 플랜 구독이 시작되었습니다' : 'Your Basic plan subscription has started');
      expect(bought.text).toContain(`${site}/mypage/receipts/${first!.id}`);
      expect(bought.text).toContain(`${site}/mypage#billing-history`);
      expect(bought.html).toContain(`href="${site}/mypage/receipts/${first!.id}"`);
      expect(await billingMailClaimed(t.ctx.database, 'purchase', paymentMailKey(first!.id))).toBe(true);

      await operator('renew', email);
      const renewal = (await paymentsOf(user.id)).at(-1)!;
      expect(renewal).toMatchObject({ reason: 'renewal', creditsGranted: 4500 });
      expect(subjectsOf(email)).toEqual([S.purchase, S.renewal]);
      const renewed = mail.billingTo(email)[1]!;
      expect(renewed.text).toContain(c.price);
      expect(renewed.text).toContain(c.methodName);
      expect(renewed.text).toContain(c.credits);
      expect(renewed.text).toContain(`${site}/mypage/receipts/${renewal.id}`);
      expect(await billingMailClaimed(t.ctx.database, 'renewal', paymentMailKey(renewal.id))).toBe(true);

      await operator('refund', email); // the latest paid payment: the renewal
      expect(subjectsOf(email)).toEqual([S.purchase, S.renewal, S.refund]);
      const refunded = mail.billingTo(email)[2]!;
      expect(refunded.text).toContain(c.full);
      expect(refunded.text).toContain(c.price);
      expect(refunded.text).toContain(c.locale === 'ko' ? '회수된 크레딧: 4,500개' : 'Credits taken back with the refund: 4,500');

      await operator('fail-renewal', email);
      expect(subjectsOf(email)).toEqual([S.purchase, S.renewal, S.refund, S.failed]);
      expect(mail.billingTo(email)[3]!.text).toContain(c.price);

      const cancel = await post(cookie, '/api/payment/cancel-subscription', {}, c.locale);
      expect(cancel.statusCode, cancel.body).toBe(200);
      await sandbox.idle(); // the sandbox's subscription.updated about the same cancellation: no second mail
      const sub = await subscriptionOf(user.id);
      expect(sub.cancelAtPeriodEnd).toBe(true);
      expect(subjectsOf(email)).toEqual([S.purchase, S.renewal, S.refund, S.failed, S.cancel]);
      const cancelled = mail.billingTo(email)[4]!;
      const endDate = mailDate(sub.currentPeriodEnd, c.locale);
      expect(endDate).toMatch(c.locale === 'ko' ? /^\d{4}년 \d{1,2}월 \d{1,2}일$/ : /^[A-Z][a-z]+ \d{1,2}, \d{4} \(KST\)$/);
      expect(cancelled.text).toContain(endDate);
      expect(cancelled.text).toContain(`${site}/mypage`);
      expect(await billingMailClaimed(t.ctx.database, 'cancellation_scheduled', cancelMailKey(sub.id, sub.currentPeriodEnd))).toBe(true);

      await operator('expire', email);
      expect(subjectsOf(email)).toEqual([S.purchase, S.renewal, S.refund, S.failed, S.cancel, S.ended]);
      const balance = await getBalance(db(), user.id);
      expect(balance.subscription).toBe(0);
      const ended = mail.billingTo(email)[5]!;
      expect(ended.text).toContain(c.locale === 'ko' ? '구독 크레딧은 구독 종료와 함께 소멸되었습니다' : 'subscription credits you had left expired');
      expect(ended.text).toContain(c.locale === 'ko' ? `보너스 크레딧 ${balance.oneTime + balance.bonus}개는 그대로` : `packs and bonuses (${balance.oneTime + balance.bonus}) are kept`);
      expect(await billingMailClaimed(t.ctx.database, 'subscription_ended', endedMailKey(sub.id))).toBe(true);

      // Every event about this customer delivered again, twice at once: no mail twice.
      const mine = sent.filter((b) => (JSON.parse(b.toString('utf8')) as { user_id: number }).user_id === user.id);
      const again = await Promise.all([...mine, ...mine].map(redeliver));
      for (const a of again) expect(a.statusCode, a.body).toBe(200);
      expect(subjectsOf(email)).toHaveLength(6);
    });

    it('credit packs: Kakao Pay in won in Korean, a card in dollars in English', async () => {
      const ko = await customer('ko');
      await buy(ko.cookie, 'ko', { package: 'package3' }, 'krw', 'kakao_pay');
      const [koMail] = mail.billingTo(ko.email);
      expect(mail.billingTo(ko.email)).toHaveLength(1);
      expect(koMail!.subject).toBe(SUBJECTS.ko.purchase);
      expect(koMail!.text).toContain('스탠다드 크레딧 팩 구매가 완료되었습니다');
      expect(koMail!.text).toContain('결제 금액: ₩21,000 (카카오페이)');
      expect(koMail!.text).toContain('지급된 크레딧: 4,800개');
      const koPay = (await paymentsOf(ko.user.id))[0]!;
      expect(koMail!.text).toContain(`${t.ctx.config.publicUrl}/mypage/receipts/${koPay.id}`);

      const en = await customer('en');
      await buy(en.cookie, 'en', { package: 'package3' }, 'usd', 'card');
      const [enMail] = mail.billingTo(en.email);
      expect(mail.billingTo(en.email)).toHaveLength(1);
      expect(enMail!.subject).toBe(SUBJECTS.en.purchase);
      expect(enMail!.text).toContain('Your purchase of the Standard credit pack is complete');
      expect(enMail!.text).toContain('Amount paid: $15 (Card)');
      expect(enMail!.text).toContain('Credits added: 4,800');
      const enPay = (await paymentsOf(en.user.id))[0]!;
      expect(enMail!.text).toContain(`${t.ctx.config.publicUrl}/en/mypage/receipts/${enPay.id}`);
    });

    it('an upgrade mails its prorated difference as a purchase', async () => {
      const { cookie, user, email } = await customer('en');
      await buy(cookie, 'en', { plan: 'deluxe' }, 'usd', 'card');
      const up = await post(cookie, '/api/payment/change-plan', { plan: 'premium' }, 'en');
      expect(up.json()).toMatchObject({ change: 'upgrade' });
      await sandbox.idle();
      const upgrade = (await paymentsOf(user.id)).find((p) => p.reason === 'upgrade')!;
      expect(upgrade.creditsGranted).toBeGreaterThan(0);
      expect(subjectsOf(email)).toEqual([SUBJECTS.en.purchase, SUBJECTS.en.purchase]);
      const m = mail.billingTo(email)[1]!;
      expect(m.text).toContain('Your plan is upgraded to Premium');
      const cents = upgrade.amountMinor;
      expect(m.text).toContain(`Amount paid: $${cents % 100 === 0 ? cents / 100 : (cents / 100).toFixed(2)} (Card)`);
      expect(m.text).toContain(`Credits added: ${upgrade.creditsGranted.toLocaleString('en-US')}`);
    });

    it('cancel, resume and cancel again in the same period mails once; cancelling in the next period mails again; the end mails once', async () => {
      const { cookie, user, email } = await customer('ko');
      await buy(cookie, 'ko', { plan: 'basic' }, 'usd', 'card');
      const cancels = () => mail.billingTo(email).filter((m) => m.subject === SUBJECTS.ko.cancel);
      const act = async (what: 'cancel' | 'resume') => {
        const r = await post(cookie, `/api/payment/${what}-subscription`, {}, 'ko');
        expect(r.statusCode, r.body).toBe(200);
        await sandbox.idle();
      };
      await act('cancel');
      await act('resume');
      await act('cancel');
      expect(cancels()).toHaveLength(1);
      const firstEnd = (await subscriptionOf(user.id)).currentPeriodEnd;
      expect(cancels()[0]!.text).toContain(mailDate(firstEnd, 'ko'));

      await act('resume');
      await operator('renew', email);
      await act('cancel');
      const secondEnd = (await subscriptionOf(user.id)).currentPeriodEnd;
      expect(secondEnd.getTime()).toBeGreaterThan(firstEnd.getTime());
      expect(cancels()).toHaveLength(2);

      const { status } = await operator('renew', email); // a cancel is scheduled: the subscription ends
      expect(status).toBe('expired');
      expect(subjectsOf(email)).toEqual([SUBJECTS.ko.purchase, SUBJECTS.ko.cancel, SUBJECTS.ko.renewal, SUBJECTS.ko.cancel, SUBJECTS.ko.ended]);
      expect(mail.billingTo(email).at(-1)!.text).toContain('베이직 플랜 구독이 종료되었습니다');
    });

    it('50 parallel deliveries of one webhook: one grant and one mail; a replay after it sends nothing', async () => {
      const { cookie, user, email } = await customer('ko');
      hold = true;
      const before = sent.length;
      try {
        await buy(cookie, 'ko', { package: 'package1' }, 'krw', 'payco');
      } finally {
        hold = false;
      }
      const [paid] = sent.slice(before).filter((b) => (JSON.parse(b.toString('utf8')) as { type: string }).type === 'order.paid');
      expect(paid).toBeDefined();
      expect(mail.billingTo(email)).toHaveLength(0);
      const answers = await Promise.all(Array.from({ length: 50 }, () => redeliver(paid!)));
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      expect(answers.map((a) => a.json().outcome as string).filter((o) => o === 'granted')).toHaveLength(1);
      expect((await getBalance(db(), user.id)).oneTime).toBe(1500);
      const [row] = await paymentsOf(user.id);
      expect(row).toMatchObject({ creditsGranted: 1500, method: 'payco', currency: 'krw' });
      expect(mail.billingTo(email)).toHaveLength(1);
      expect(mail.billingTo(email)[0]!.text).toContain('결제 금액: ₩7,000 (페이코)');

      expect((await redeliver(paid!)).json().outcome).toBe('duplicate');
      expect(mail.billingTo(email)).toHaveLength(1);
    });

    it('a send that fails releases the claim; the next delivery about the payment sends the mail, once', async () => {
      const { cookie, user, email } = await customer('en');
      mail.failNext();
      const before = sent.length;
      await buy(cookie, 'en', { package: 'package2' }, 'usd', 'card');
      const [row] = await paymentsOf(user.id);
      expect(row!.creditsGranted).toBe(3000);
      expect(mail.billingTo(email)).toHaveLength(0);
      expect(await billingMailClaimed(t.ctx.database, 'purchase', paymentMailKey(row!.id))).toBe(false);

      const [paid] = sent.slice(before).filter((b) => (JSON.parse(b.toString('utf8')) as { type: string }).type === 'order.paid');
      expect((await redeliver(paid!)).json().outcome).toBe('duplicate');
      expect(mail.billingTo(email)).toHaveLength(1);
      expect(mail.billingTo(email)[0]!.text).toContain('Amount paid: $10 (Card)');
      expect(await billingMailClaimed(t.ctx.database, 'purchase', paymentMailKey(row!.id))).toBe(true);
      await Promise.all([redeliver(paid!), redeliver(paid!)]);
      expect(mail.billingTo(email)).toHaveLength(1);
      expect((await getBalance(db(), user.id)).oneTime).toBe(3000);
    });

    it('a refused duplicate subscription mails only its refund, saying why, once', async () => {
      const { cookie, user, email } = await customer('ko');
      await buy(cookie, 'ko', { plan: 'basic' }, 'krw', 'card');
      // A checkout opened before the one-subscription rule (or in a race) is paid: a second subscription.
      const co = await sandbox.createCheckout({ checkoutId: randomUUID(), userId: user.id, email, item: { kind: 'plan', plan: 'premium' }, currency: 'krw', locale: 'ko', successUrl: '/ok', cancelUrl: '/no' });
      await t.app.inject({ method: 'POST', url: co.url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'card=4242424242424242&method=card&action=pay' });
      await sandbox.idle();
      const dup = (await db().select().from(subscriptions).where(eq(subscriptions.userId, user.id))).find((s) => s.plan === 'premium')!;
      expect(dup.refusedAt).not.toBeNull();
      expect(dup.status).toBe('expired');
      expect(subjectsOf(email)).toEqual([SUBJECTS.ko.purchase, SUBJECTS.ko.refund]);
      const refund = mail.billingTo(email)[1]!;
      expect(refund.text).toContain('이미 이용 중인 구독이 있어 새로 결제하신 프리미엄 플랜 구독은 시작되지 않았으며');
      expect(refund.text).toContain('환불된 금액: ₩40,600');
      expect(refund.text).not.toContain('회수된 크레딧');

      for (const b of sentAbout(dup.providerSubscriptionId)) expect((await redeliver(b)).statusCode).toBe(200);
      const invoices = await db().select().from(billingPayments).where(and(eq(billingPayments.userId, user.id), eq(billingPayments.providerSubscriptionId, dup.providerSubscriptionId)));
      for (const inv of invoices) for (const b of sentAbout(inv.providerId)) expect((await redeliver(b)).statusCode).toBe(200);
      expect(subjectsOf(email)).toHaveLength(2);
    });

    it('a deleted user, or one without an e-mail address, is mailed nothing', async () => {
      for (const gone of [{ deletedAt: new Date() }, { email: '' }]) {
        const { cookie, user, email } = await customer('ko');
        hold = true;
        const before = sent.length;
        try {
          await buy(cookie, 'ko', { package: 'package1' }, 'krw', 'kakao_pay');
        } finally {
          hold = false;
        }
        await db().update(users).set(gone).where(eq(users.id, user.id));
        for (const b of sent.slice(before)) expect((await redeliver(b)).statusCode).toBe(200);
        const [row] = await paymentsOf(user.id);
        expect(row!.creditsGranted).toBe(1500);
        await sandbox.refund(row!.providerId);
        await sandbox.idle();
        expect((await paymentsOf(user.id))[0]!.refundedMinor).toBe(7000);
        expect(mail.billingTo(email)).toHaveLength(0);
        expect(mail.billingTo('')).toHaveLength(0);
        expect(await billingMailClaimed(t.ctx.database, 'purchase', paymentMailKey(row!.id))).toBe(false);
      }
    });
  });

  describe('Stripe (fake)', () => {
    let t: TestApp;
    let fake: FakeStripe;
    let deliver: StripeBillingApp['deliver'];
    let close: StripeBillingApp['close'];
    const mail = capturingMail();
    beforeAll(async () => {
      ({ t, fake, deliver, close } = await startStripeBillingApp(kind, { secretKey: 'sk_test_dewy_billing_mails_0001', webhookSecret: 'whsec_dewy_billing_mails', mail }));
    });
    afterAll(async () => {
      await close?.();
    });

    it('a pack mails once under parallel and repeated deliveries; each partial refund mails its new total', async () => {
      const { cookie, user, email } = await signUpAndLogin(t.app, undefined, undefined, { verify: false });
      await t.ctx.database.db.update(users).set({ locale: 'en' }).where(eq(users.id, user.id));
      const r = await t.app.inject({ method: 'POST', url: '/api/payment/credit-checkout', headers: { cookie }, payload: { package: 'package3', currency: 'usd' } });
      expect(r.statusCode, r.body).toBe(200);
      const session = stripeSessionOf(r.json().checkout_url as string);
      const done = fake.completeCheckout(session);
      const answers = await Promise.all(Array.from({ length: 10 }, () => deliver('checkout.session.completed', session)));
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      await deliver('checkout.session.completed', session);
      const purchases = mail.billingTo(email);
      expect(purchases.map((m) => m.subject)).toEqual([SUBJECTS.en.purchase]);
      expect(purchases[0]!.text).toContain('Amount paid: $15');
      expect(purchases[0]!.text).toContain('Credits added: 4,800');

      fake.refundOrder(session, 500);
      expect((await deliver('charge.refunded', done.chargeId!)).statusCode).toBe(200);
      await deliver('charge.refunded', done.chargeId!);
      fake.refundOrder(session);
      expect((await deliver('charge.refunded', done.chargeId!)).statusCode).toBe(200);
      await deliver('charge.refunded', done.chargeId!);
      const refunds = mail.billingTo(email).filter((m) => m.subject === SUBJECTS.en.refund);
      expect(refunds).toHaveLength(2);
      expect(refunds[0]!.text).toContain('Part of your Standard credit pack payment ($15) has been refunded');
      expect(refunds[0]!.text).toContain('Amount refunded: $5 (total refunded on this payment so far)');
      expect(refunds[0]!.text).toContain('Credits taken back with the refund: 1,600 (total so far)');
      expect(refunds[1]!.text).toContain('has been refunded in full');
      expect(refunds[1]!.text).toContain('Amount refunded: $15');
      expect(refunds[1]!.text).toContain('Credits taken back with the refund: 4,800');
      expect((await getBalance(t.ctx.database.db, user.id)).oneTime).toBe(0);
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

    it('a pack mails once under parallel and repeated deliveries, with LS\'s receipt', async () => {
      const { cookie, user, email } = await signUpAndLogin(t.app, undefined, undefined, { verify: false });
      const r = await t.app.inject({ method: 'POST', url: '/api/payment/credit-checkout', headers: { cookie }, payload: { package: 'package4' } });
      expect(r.statusCode, r.body).toBe(200);
      const { order } = fake.completeCheckout(lastCheckout());
      const answers = await Promise.all(Array.from({ length: 10 }, () => deliver('order_created', order)));
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      await deliver('order_created', order);
      const events = await t.ctx.database.db.select().from(billingEvents).where(eq(billingEvents.objectId, order.id));
      expect(events.filter((e) => e.outcome === 'granted')).toHaveLength(1);
      const mails = mail.billingTo(email);
      expect(mails.map((m) => m.subject)).toEqual([SUBJECTS.ko.purchase]);
      expect(mails[0]!.text).toContain('결제 금액: $20');
      expect(mails[0]!.text).toContain('지급된 크레딧: 6,450개');
      expect(mails[0]!.text).toContain(`영수증 보기: ${fake.origin}/my-orders/${order.id}`);
      expect((await getBalance(t.ctx.database.db, user.id)).oneTime).toBe(6450);
    });
  });
});
