import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLemonSqueezy } from '../../../test/fakes/fake-lemonsqueezy.server';
import { startLemonSqueezyBillingApp, type LemonSqueezyBillingApp } from '../../../test/helpers/billing';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { getBalance, ledgerSums } from '../credits';

/**
 * The billing service with the Lemon Squeezy adapter against its fake server: LS-signed webhooks into
 * our route, LS's own semantics (no event ids, an order for every purchase, downgrades switching the
 * variant at once) giving the same credits as the sandbox.
 */
describe.each(TEST_DATABASES)('billing with Lemon Squeezy (fake) on $name', (kind) => {
  let t: TestApp;
  let fake: FakeLemonSqueezy;
  let deliver: LemonSqueezyBillingApp['deliver'];
  let lastCheckout: LemonSqueezyBillingApp['lastCheckout'];
  let close: LemonSqueezyBillingApp['close'];
  beforeAll(async () => {
    ({ t, fake, deliver, lastCheckout, close } = await startLemonSqueezyBillingApp(kind));
  });
  afterAll(async () => {
    await close?.();
  });
  const books = async (userId: number) => {
    const b = await getBalance(t.ctx.database.db, userId);
    expect((await ledgerSums(t.ctx.database.db, userId)).total).toBe(b.total);
    return b;
  };

  it('a pack: order_created grants once (replays too), order_refunded takes it back', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/credit-checkout', headers: { cookie }, payload: { package: 'package4' } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().checkout_url).toMatch(/^http/);
    const { order } = fake.completeCheckout(lastCheckout());
    for (let i = 0; i < 3; i++) expect((await deliver('order_created', order)).statusCode).toBe(200);
    expect((await books(user.id)).oneTime).toBe(300 + 6450);
    expect((await t.app.inject({ url: `/api/payment/checkout/${r.json().checkoutId}`, headers: { cookie } })).json().status).toBe('completed');
    const refunded = fake.refundOrder(order.id);
    expect((await deliver('order_refunded', refunded)).statusCode).toBe(200);
    expect((await books(user.id)).oneTime).toBe(300);
  });

  it('a plan: initial payment, upgrade with an immediate invoice, downgrade shown as next plan until the renewal', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    await t.app.inject({ method: 'POST', url: '/api/payment/checkout', headers: { cookie }, payload: { plan: 'basic' } });
    const done = fake.completeCheckout(lastCheckout());
    expect((await deliver('order_created', done.order)).statusCode).toBe(200); // a plan's order: acknowledged, grants nothing
    expect((await deliver('subscription_created', done.subscription!)).statusCode).toBe(200);
    expect((await deliver('subscription_payment_success', done.invoice!)).statusCode).toBe(200);
    expect((await books(user.id)).subscription).toBe(4500);

    const up = await t.app.inject({ method: 'POST', url: '/api/payment/change-plan', headers: { cookie }, payload: { plan: 'deluxe' } });
    expect(up.json()).toMatchObject({ change: 'upgrade', plan: 'deluxe' });
    const upgradeInvoice = [...fake.invoices.values()].at(-1)!;
    expect((await deliver('subscription_payment_success', upgradeInvoice)).json().outcome).toBe('granted');
    expect((await books(user.id)).subscription).toBe(9500);

    const down = await t.app.inject({ method: 'POST', url: '/api/payment/change-plan', headers: { cookie }, payload: { plan: 'basic' } });
    expect(down.json()).toMatchObject({ change: 'downgrade', plan: 'deluxe', nextPlan: 'basic' });
    const sub = fake.subscriptions.get(done.subscription!.id)!;
    await deliver('subscription_updated', sub);
    const st = (await t.app.inject({ url: '/api/payment/subscription-status', headers: { cookie } })).json();
    expect(st).toMatchObject({ plan: 'deluxe', nextPlan: 'basic' });

    const renewal = fake.renew(done.subscription!.id);
    expect((await deliver('subscription_payment_success', renewal)).json().outcome).toBe('granted');
    expect((await books(user.id)).subscription).toBe(4500);
    const after = (await t.app.inject({ url: '/api/payment/subscription-status', headers: { cookie } })).json();
    expect(after).toMatchObject({ plan: 'basic', nextPlan: null });
  });
});
