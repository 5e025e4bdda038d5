import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { paySandboxCheckout, sandboxOperatorAuth, startSandboxBillingApp } from '../../../test/helpers/billing';
import { signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { affiliateReferrals, affiliateRewards, billingEvents, billingPayments, creditLedger, sandboxObjects, subscriptions, users } from '../../db/schema';
import { getBalance, ledgerSums } from '../credits';
import type { SandboxEventBody, SandboxProvider } from './providers/sandbox.provider';

/**
 * Issue 21 point 1 on the sandbox (decision 028), on PGlite and PostgreSQL: an upgrade grants the plan
 * difference in credits times the share of the period the provider charged for, the referral reward
 * follows the credits actually granted, and neither parallel webhook deliveries nor parallel upgrade
 * requests grant or charge twice. The period left is set with the sandbox's test clock.
 */
const DAY = 86_400_000;
const PERIOD = 30 * DAY;

describe.each(TEST_DATABASES)('upgrade proration on the sandbox on $name', (kind) => {
  let t: TestApp;
  let sandbox: SandboxProvider;
  let operator: string;
  beforeAll(async () => {
    ({ t, sandbox } = await startSandboxBillingApp(kind));
    operator = sandboxOperatorAuth(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.ctx.database.db;
  const post = (cookie: string, url: string, payload: object = {}) => t.app.inject({ method: 'POST', url, headers: { cookie }, payload });
  const operate = (payload: object) => t.app.inject({ method: 'POST', url: '/api/admin/billing/sandbox', headers: { authorization: operator }, payload });

  /** A signed-up user (optionally referred by a fresh sharer) subscribed to basic through the hosted checkout. */
  async function subscriber(opts: { referred?: boolean } = {}) {
    const { cookie, user, email } = await signUpAndLogin(t.app);
    let sharerId: number | null = null;
    if (opts.referred) {
      sharerId = (await signUpAndLogin(t.app)).user.id;
      await db().insert(affiliateReferrals).values({ referredId: user.id, sharerId, eligible: true });
    }
    const res = await post(cookie, '/api/payment/checkout', { plan: 'basic', currency: 'usd' });
    expect(res.statusCode, res.body).toBe(200);
    const form = await paySandboxCheckout(t, res.json().checkout_url);
    expect(form.statusCode).toBe(303);
    const subId = (await db().select().from(users).where(eq(users.id, user.id)))[0]!.subscriptionId!;
    expect((await books(user.id)).subscription).toBe(4500);
    return { cookie, user, email, subId, sharerId };
  }
  async function books(userId: number) {
    const balance = await getBalance(db(), userId);
    const sums = await ledgerSums(db(), userId);
    expect(sums.subscription).toBe(balance.subscription);
    expect(sums.bonus).toBe(balance.bonus);
    return balance;
  }
  async function upgradeInvoices(subId: string) {
    const rows = await db().select().from(sandboxObjects).where(and(eq(sandboxObjects.kind, 'invoice'), sql`${sandboxObjects.data}->>'subscriptionId' = ${subId}`, sql`${sandboxObjects.data}->>'reason' = 'upgrade'`));
    return rows.map((r) => ({ id: r.id, ...(r.data as { amountMinor: number; prorationFraction?: number }) }));
  }
  const paymentOf = async (invoiceId: string) => (await db().select().from(billingPayments).where(eq(billingPayments.providerId, invoiceId)))[0]!;

  // basic ($9, 4,500) → premium ($29, 14,500): $20 and 10,000 credits for a whole period.
  it.each([
    { left: 1, cents: 2000, credits: 10_000 },
    { left: 0.5, cents: 1000, credits: 5000 },
    { left: 0.003, cents: 6, credits: 30 },
  ])('an upgrade with $left of the period left charges $cents cents and grants $credits credits; the referral reward follows them', async ({ left, cents, credits }) => {
    const { cookie, user, subId, sharerId } = await subscriber({ referred: true });
    const sharerBefore = (await books(sharerId!)).bonus;
    if (left < 1) await sandbox.advance(subId, Math.round((1 - left) * PERIOD));
    const up = await post(cookie, '/api/payment/change-plan', { plan: 'premium' });
    expect(up.statusCode, up.body).toBe(200);
    await sandbox.idle();

    const [inv, ...more] = await upgradeInvoices(subId);
    expect(more).toHaveLength(0);
    expect(inv!.amountMinor).toBe(cents);
    // The fraction is the part of the period left on the sandbox's clock when the upgrade ran: the real
    // seconds between sign-up and upgrade count too (seconds on a loaded machine), so it is checked against
    // the times the invoice recorded, and against the scenario within 0.001 of a period (43 minutes).
    const at = inv as unknown as { periodStart: string; periodEnd: string; createdAt: string };
    const recorded = (Date.parse(at.periodEnd) - Date.parse(at.createdAt)) / (Date.parse(at.periodEnd) - Date.parse(at.periodStart));
    expect(inv!.prorationFraction).toBeCloseTo(recorded, 5);
    expect(Math.abs(inv!.prorationFraction! - left)).toBeLessThan(0.001);
    expect((await books(user.id)).subscription).toBe(4500 + credits);
    expect((await paymentOf(inv!.id)).creditsGranted).toBe(credits);
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0]!.plan).toBe('premium');
    // The sharer's reward for this invoice is half of what it granted, not half of the full difference.
    const reward = (await db().select().from(affiliateRewards).where(eq(affiliateRewards.paymentId, (await paymentOf(inv!.id)).id)))[0];
    expect(reward?.credits).toBe(Math.floor(credits / 2));
    expect((await books(sharerId!)).bonus - sharerBefore).toBe(Math.floor(credits / 2));
  });

  it('an upgrade whose proration rounds to no credit grants nothing, records the outcome, and the plan still changes', async () => {
    const { cookie, user, subId } = await subscriber();
    // One minute left of the period: 5,000 × 60 / 2,592,000 ≈ 0.12 credit, $10 × the same ≈ 0.02 cent.
    await sandbox.advance(subId, PERIOD - 60_000);
    expect((await post(cookie, '/api/payment/change-plan', { plan: 'deluxe' })).statusCode).toBe(200);
    await sandbox.idle();
    const [inv] = await upgradeInvoices(subId);
    expect(inv!.amountMinor).toBe(0);
    const ev = await db().select().from(billingEvents).where(eq(billingEvents.objectId, inv!.id));
    expect(ev.map((e) => e.outcome)).toEqual(['prorated_to_zero']);
    expect((await books(user.id)).subscription).toBe(4500);
    const ledger = await db().select().from(creditLedger).where(and(eq(creditLedger.userId, user.id), eq(creditLedger.reference, `sandbox:invoice:${inv!.id}`)));
    expect(ledger).toHaveLength(0);
    const local = (await db().select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, subId)))[0]!;
    expect(local.creditedPlan).toBe('deluxe');
  });

  it('50 parallel deliveries of the same upgrade invoice (one event replayed, and new events naming it) grant once', async () => {
    const { cookie, user, email, sharerId } = await subscriber({ referred: true });
    await operate({ action: 'advance', email, duration: '15d' });
    // Hold the sandbox's webhooks back to deliver them ourselves, all at once.
    const held: Buffer[] = [];
    sandbox.setDeliverer(async (body) => {
      held.push(body);
      return 200;
    });
    try {
      expect((await post(cookie, '/api/payment/change-plan', { plan: 'premium' })).statusCode).toBe(200);
      await sandbox.idle();
    } finally {
      sandbox.setDeliverer(async (body, headers) => (await t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers, payload: body })).statusCode);
    }
    const events = held.map((b) => ({ raw: b, body: JSON.parse(b.toString()) as SandboxEventBody }));
    const paid = events.find((e) => e.body.type === 'invoice.paid')!;
    const deliver = (raw: Buffer) => t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: sandbox.sign(raw), payload: raw });
    const fresh = (i: number) => Buffer.from(JSON.stringify({ ...paid.body, id: `evt_parallel_${user.id}_${i}` }));
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => deliver(i % 2 ? paid.raw : fresh(i))));
    expect(results.map((r) => r.statusCode).every((s) => s === 200)).toBe(true);
    const outcomes = results.map((r) => r.json().outcome as string);
    expect(outcomes.filter((o) => o === 'granted')).toHaveLength(1);
    expect(outcomes.every((o) => ['granted', 'duplicate', 'nothing'].includes(o))).toBe(true);
    expect((await books(user.id)).subscription).toBe(4500 + 5000);
    const pay = await paymentOf(paid.body.object!.id);
    expect(pay.creditsGranted).toBe(5000);
    expect(await db().select().from(affiliateRewards).where(eq(affiliateRewards.paymentId, pay.id))).toHaveLength(1);
    expect((await books(sharerId!)).bonus).toBe(2250 + 2500);
  });

  it('20 parallel upgrade requests through the route make one upgrade: one charge, one grant', async () => {
    const { cookie, user, subId } = await subscriber();
    await sandbox.advance(subId, 10 * DAY);
    const res = await Promise.all(Array.from({ length: 20 }, () => post(cookie, '/api/payment/change-plan', { plan: 'premium' })));
    await sandbox.idle();
    expect(res.map((r) => r.statusCode).every((s) => s === 200), res.map((r) => r.body).join('\n')).toBe(true);
    const invoices = await upgradeInvoices(subId);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]!.amountMinor).toBe(1333); // $20 × 20/30
    expect((await books(user.id)).subscription).toBe(4500 + 6667); // 10,000 × 20/30
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0]!.plan).toBe('premium');
  });
});
