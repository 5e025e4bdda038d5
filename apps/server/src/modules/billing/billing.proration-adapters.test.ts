import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FakeLemonSqueezy } from '../../../test/fakes/fake-lemonsqueezy.server';
import type { FakeStripe } from '../../../test/fakes/fake-stripe.server';
import { startLemonSqueezyBillingApp, startStripeBillingApp, subscribeThroughStripe, type LemonSqueezyBillingApp, type StripeBillingApp } from '../../../test/helpers/billing';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { billingPayments } from '../../db/schema';
import { getBalance, ledgerSums } from '../credits';
import type { PaymentsProvider } from './payments-provider';

/**
 * Issue 21 point 1 through each real adapter's invoice shape (decision 028), on PGlite and PostgreSQL:
 * Stripe's proration lines (`proration: true`, `period` = change → period end) and Lemon Squeezy's
 * `updated` invoice (an amount only) give the same credits as the sandbox at 100 %, 50 % and 0.3 % of
 * the period left: basic ($9, 4,500) → premium ($29, 14,500).
 */
const CASES = [
  { left: 1, credits: 10_000 },
  { left: 0.5, credits: 5000 },
  { left: 0.003, credits: 30 },
];

async function books(t: TestApp, userId: number) {
  const b = await getBalance(t.ctx.database.db, userId);
  expect((await ledgerSums(t.ctx.database.db, userId)).total).toBe(b.total);
  return b;
}
const paymentOf = async (t: TestApp, invoiceId: string) => (await t.ctx.database.db.select().from(billingPayments).where(eq(billingPayments.providerId, invoiceId)))[0]!;

describe.each(TEST_DATABASES)('upgrade proration through the Stripe adapter (fake) on $name', (kind) => {
  let t: TestApp;
  let fake: FakeStripe;
  let provider: PaymentsProvider;
  let deliver: StripeBillingApp['deliver'];
  let close: StripeBillingApp['close'];
  beforeAll(async () => {
    ({ t, fake, payments: provider, deliver, close } = await startStripeBillingApp(kind, { secretKey: 'sk_test_dewy_proration_0001', webhookSecret: 'whsec_dewy_proration' }));
  });
  afterAll(async () => {
    await close?.();
  });

  /** A basic subscriber; the fake's clock then moved so that `left` of the period remains; upgraded to premium. */
  async function upgradeWith(left: number) {
    const { cookie, user } = await signUpAndLogin(t.app);
    const { done } = await subscribeThroughStripe({ t, fake, deliver }, cookie, 'basic');
    if (left < 1) fake.advanceClock((1 - left) * 30 * 86_400);
    const up = await t.app.inject({ method: 'POST', url: '/api/payment/change-plan', headers: { cookie }, payload: { plan: 'premium' } });
    expect(up.json()).toMatchObject({ change: 'upgrade', plan: 'premium' });
    const invoiceId = (fake.object(done.subscriptionId!) as { latest_invoice: string }).latest_invoice;
    return { user, subscriptionId: done.subscriptionId!, invoiceId };
  }

  it.each(CASES)('$left of the period left: the proration lines charge that share and grant $credits credits', async ({ left, credits }) => {
    const { user, invoiceId } = await upgradeWith(left);
    const inv = fake.object(invoiceId) as { billing_reason: string; amount_due: number; lines: { data: Array<{ amount: number; period: { start: number; end: number }; parent: { subscription_item_details: { proration: boolean } } }> } };
    expect(inv.billing_reason).toBe('subscription_update');
    expect(inv.lines.data.map((l) => l.parent.subscription_item_details.proration)).toEqual([true, true]);
    expect(inv.amount_due).toBe(Math.round(2900 * left) - Math.round(900 * left));
    const read = await provider.getInvoice(invoiceId);
    expect(read.reason).toBe('upgrade');
    expect('fraction' in read.proration! && read.proration.fraction).toBeCloseTo(left, 5);
    expect((await deliver('invoice.paid', invoiceId)).json().outcome).toBe('granted');
    expect((await books(t, user.id)).subscription).toBe(4500 + credits);
    expect((await paymentOf(t, invoiceId)).creditsGranted).toBe(credits);
  });

  it('read after the subscription moved to its next period, the proration line amount still gives the fraction', async () => {
    const { invoiceId, subscriptionId } = await upgradeWith(0.5);
    fake.advanceClock(15 * 86_400);
    fake.renew(subscriptionId);
    const read = await provider.getInvoice(invoiceId);
    expect(read.proration).toEqual({ fraction: 1450 / 2900 });
  });
});

describe.each(TEST_DATABASES)('upgrade proration through the Lemon Squeezy adapter (fake) on $name', (kind) => {
  let t: TestApp;
  let fake: FakeLemonSqueezy;
  let provider: PaymentsProvider;
  let deliver: LemonSqueezyBillingApp['deliver'];
  let lastCheckout: LemonSqueezyBillingApp['lastCheckout'];
  let close: LemonSqueezyBillingApp['close'];
  beforeAll(async () => {
    ({ t, fake, payments: provider, deliver, lastCheckout, close } = await startLemonSqueezyBillingApp(kind));
  });
  afterAll(async () => {
    await close?.();
  });

  it.each(CASES)('$left of the period left: the `updated` invoice charges that share and grants $credits credits', async ({ left, credits }) => {
    const { cookie, user } = await signUpAndLogin(t.app);
    await t.app.inject({ method: 'POST', url: '/api/payment/checkout', headers: { cookie }, payload: { plan: 'basic' } });
    const done = fake.completeCheckout(lastCheckout());
    expect((await deliver('subscription_created', done.subscription!)).statusCode).toBe(200);
    expect((await deliver('subscription_payment_success', done.invoice!)).json().outcome).toBe('granted');
    // The fake prorates over its current period (created → renews_at); move its clock to leave `left`.
    const a = done.subscription!.attributes;
    const end = Date.parse(String(a.renews_at));
    const start = Math.max(Date.parse(String(a.created_at)), end - 30 * 86_400_000);
    const elapsed = fake.now().getTime() - start;
    if (left < 1) fake.advance(Math.round((1 - left) * (end - start)) - elapsed);
    const up = await t.app.inject({ method: 'POST', url: '/api/payment/change-plan', headers: { cookie }, payload: { plan: 'premium' } });
    expect(up.json()).toMatchObject({ change: 'upgrade', plan: 'premium' });
    const inv = [...fake.invoices.values()].at(-1)!;
    expect(inv.attributes).toMatchObject({ billing_reason: 'updated', subtotal: Math.round(2000 * left) });
    const read = await provider.getInvoice(inv.id);
    expect(read.proration).toEqual({ chargedMinor: Math.round(2000 * left) });
    expect((await deliver('subscription_payment_success', inv)).json().outcome).toBe('granted');
    expect((await books(t, user.id)).subscription).toBe(4500 + credits);
    expect((await paymentOf(t, inv.id)).creditsGranted).toBe(credits);
  });
});
