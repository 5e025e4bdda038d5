import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeStripe } from '../../../test/fakes/fake-stripe.server';
import { startStripeBillingApp, type StripeBillingApp } from '../../../test/helpers/billing';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
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
});
