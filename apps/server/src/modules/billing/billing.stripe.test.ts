import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { errorMessage } from '@dewy/contracts';
import type { FakeStripe } from '../../../test/fakes/fake-stripe.server';
import { startStripeBillingApp, type StripeBillingApp } from '../../../test/helpers/billing';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { billingCheckouts, billingPayments } from '../../db/schema';
import { getBalance, ledgerSums } from '../credits';

/**
 * The billing service with the Stripe adapter against its fake server: Stripe-signed events into our
 * webhook route give the same credits as the sandbox (pack, subscription, upgrade with an immediate
 * prorated invoice, downgrade by a schedule until the renewal, refund), and replays grant nothing.
 */
describe.each(TEST_DATABASES)('billing with Stripe (fake) on $name', (kind) => {
  let t: TestApp;
  let fake: FakeStripe;
  let deliver: StripeBillingApp['deliver'];
  let close: StripeBillingApp['close'];
  beforeAll(async () => {
    ({ t, fake, deliver, close } = await startStripeBillingApp(kind, { secretKey: 'sk_test_dewy_billing_service_0001', webhookSecret: 'whsec_dewy_billing_service' }));
  });
  afterAll(async () => {
    await close?.();
  });

  const sessionOf = (url: string) => {
    const id = [...url.matchAll(/cs_[A-Za-z0-9_]+/g)].at(-1)?.[0];
    expect(id, url).toBeTruthy();
    return id!;
  };
  const books = async (userId: number) => {
    const b = await getBalance(t.ctx.database.db, userId);
    expect((await ledgerSums(t.ctx.database.db, userId)).total).toBe(b.total);
    return b;
  };

  it('a pack: checkout.session.completed grants once; charge.refunded takes it back', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/credit-checkout', headers: { cookie }, payload: { package: 'package3' } });
    expect(r.statusCode, r.body).toBe(200);
    const session = sessionOf(r.json().checkout_url);
    const done = fake.completeCheckout(session);
    for (let i = 0; i < 3; i++) expect((await deliver('checkout.session.completed', session)).statusCode).toBe(200);
    expect((await books(user.id)).oneTime).toBe(300 + 4800);
    expect((await t.app.inject({ url: `/api/payment/checkout/${r.json().checkoutId}`, headers: { cookie } })).json().status).toBe('completed');
    fake.refundOrder(session);
    expect((await deliver('charge.refunded', done.chargeId!)).statusCode).toBe(200);
    expect((await books(user.id)).oneTime).toBe(300);
  });

  it('a plan: initial invoice, upgrade now (prorated invoice), downgrade by schedule until the renewal', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/checkout', headers: { cookie }, payload: { plan: 'basic' } });
    const session = sessionOf(r.json().checkout_url);
    const done = fake.completeCheckout(session);
    expect((await deliver('checkout.session.completed', session)).statusCode).toBe(200);
    expect((await deliver('invoice.paid', done.invoiceId!)).json().outcome).toBe('granted');
    expect((await books(user.id)).subscription).toBe(4500);

    const up = await t.app.inject({ method: 'POST', url: '/api/payment/change-plan', headers: { cookie }, payload: { plan: 'premium' } });
    expect(up.json()).toMatchObject({ change: 'upgrade', plan: 'premium' });
    const upgradeInvoice = (fake.object(done.subscriptionId!) as { latest_invoice: string }).latest_invoice;
    expect((await deliver('invoice.paid', upgradeInvoice)).json().outcome).toBe('granted');
    expect((await books(user.id)).subscription).toBe(14500);

    const down = await t.app.inject({ method: 'POST', url: '/api/payment/change-plan', headers: { cookie }, payload: { plan: 'deluxe' } });
    expect(down.json()).toMatchObject({ change: 'downgrade', plan: 'premium', nextPlan: 'deluxe' });
    const renewal = fake.renew(done.subscriptionId!)!;
    expect((await deliver('invoice.paid', renewal)).json().outcome).toBe('granted');
    await deliver('customer.subscription.updated', done.subscriptionId!);
    expect((await books(user.id)).subscription).toBe(9500);
    expect((await t.app.inject({ url: '/api/payment/subscription-status', headers: { cookie } })).json()).toMatchObject({ plan: 'deluxe', nextPlan: null });
  });

  it('dollars only (no STRIPE_PRICE_KRW_*): prices answer usd alone; a checkout in won is CURRENCY_NOT_AVAILABLE in the caller\'s language and nothing is recorded or charged', async () => {
    expect((await t.app.inject({ url: '/api/payment/prices' })).json().currencies).toEqual(['usd']);
    const { cookie, user } = await signUpAndLogin(t.app);
    const sessionsBefore = fake.requestsTo('POST', '/v1/checkout/sessions').length;
    for (const [lang, locale] of [['ko-KR,ko;q=0.9', 'ko'], ['en-US,en;q=0.9', 'en']] as const) {
      for (const [url, payload] of [['/api/payment/credit-checkout', { package: 'package3', currency: 'krw' }], ['/api/payment/checkout', { plan: 'basic', currency: 'krw' }]] as const) {
        const r = await t.app.inject({ method: 'POST', url, headers: { cookie, 'accept-language': lang }, payload });
        expect(r.statusCode, r.body).toBe(400);
        expect(r.json()).toMatchObject({ success: false, code: 'CURRENCY_NOT_AVAILABLE', message: errorMessage('CURRENCY_NOT_AVAILABLE', locale) });
      }
    }
    expect(errorMessage('CURRENCY_NOT_AVAILABLE', 'ko')).not.toBe(errorMessage('CURRENCY_NOT_AVAILABLE', 'en'));
    expect(fake.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(sessionsBefore);
    expect(await t.ctx.database.db.select().from(billingCheckouts).where(eq(billingCheckouts.userId, user.id))).toEqual([]);
    expect(await t.ctx.database.db.select().from(billingPayments).where(eq(billingPayments.userId, user.id))).toEqual([]);
    expect((await books(user.id)).total).toBe(300);

    // In dollars the same pack opens a session with no method filter (Stripe's dynamic methods), and
    // a Korean page falls back to dollars when won is not on offer.
    const usd = await t.app.inject({ method: 'POST', url: '/api/payment/credit-checkout', headers: { cookie }, payload: { package: 'package3' } });
    expect(usd.statusCode, usd.body).toBe(200);
    const session = sessionOf(usd.json().checkout_url);
    expect(fake.object(session)).toMatchObject({ currency: 'usd', amount_total: 1500, allowed_payment_method_types: null, payment_method_types: ['card'] });
    expect(fake.requestsTo('POST', '/v1/checkout/sessions').at(-1)?.body).not.toHaveProperty('allowed_payment_method_types');
  });
});
