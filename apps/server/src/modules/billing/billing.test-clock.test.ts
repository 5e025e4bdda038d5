import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { paySandboxCheckout, sandboxOperatorAuth, startSandboxBillingApp } from '../../../test/helpers/billing';
import { signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { sandboxObjects, subscriptions, users } from '../../db/schema';
import { getBalance, ledgerSums, spend } from '../credits';
import type { SandboxProvider } from './providers/sandbox.provider';
import { parseDuration } from './sandbox.routes';

/**
 * The sandbox's test clock (decision 028; `npm run billing -- advance <email> <duration>`), on PGlite and
 * PostgreSQL: moving a subscription's time forward renews it at each period end it crosses (or ends it
 * when a cancel was scheduled) through the usual signed webhooks, and bad durations change nothing.
 */
const DAY = 86_400_000;

describe('test-clock durations', () => {
  it('reads whole days, hours and minutes up to 366 days, and nothing else', () => {
    expect(parseDuration('29d')).toBe(29 * DAY);
    expect(parseDuration('12h')).toBe(12 * 3_600_000);
    expect(parseDuration('30m')).toBe(30 * 60_000);
    expect(parseDuration('366d')).toBe(366 * DAY);
    for (const bad of ['', '0d', '-1d', '1.5d', '29', 'd', '29x', '367d', '9000h', '1d2h', ' 1w']) expect(parseDuration(bad), bad).toBeNull();
  });
});

describe.each(TEST_DATABASES)('sandbox test clock on $name', (kind) => {
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
  const operate = async (payload: object) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/billing/sandbox', headers: { authorization: operator }, payload });
    await sandbox.idle();
    return res;
  };

  async function subscriber() {
    const { cookie, user, email } = await signUpAndLogin(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/api/payment/checkout', headers: { cookie }, payload: { plan: 'basic' } });
    await paySandboxCheckout(t, res.json().checkout_url);
    const subId = (await db().select().from(users).where(eq(users.id, user.id)))[0]!.subscriptionId!;
    return { cookie, user, email, subId };
  }
  const local = async (subId: string) => (await db().select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, subId)))[0]!;
  const renewals = async (subId: string) =>
    db().select().from(sandboxObjects).where(and(eq(sandboxObjects.kind, 'invoice'), sql`${sandboxObjects.data}->>'subscriptionId' = ${subId}`, sql`${sandboxObjects.data}->>'reason' = 'renewal'`));
  async function books(userId: number) {
    const b = await getBalance(db(), userId);
    expect((await ledgerSums(db(), userId)).subscription).toBe(b.subscription);
    return b;
  }

  it('advance within the period moves the clock only; crossing its end renews there: credits reset, the period starts at the old end', async () => {
    const { user, email, subId } = await subscriber();
    const first = await local(subId);
    await spend(db(), { userId: user.id, amount: 1300, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `clock:${user.id}` });
    const within = await operate({ action: 'advance', email, duration: '29d' });
    expect(within.statusCode, within.body).toBe(200);
    expect(within.json().result).toMatchObject({ invoiceIds: [], status: 'active' });
    expect(Date.parse(within.json().result.clock) - Date.now()).toBeGreaterThan(29 * DAY - 60_000);
    expect(await renewals(subId)).toHaveLength(0);
    expect((await books(user.id)).subscription).toBe(4500 - 1000); // 300 welcome credits went first

    const across = await operate({ action: 'advance', email, duration: '2d' });
    expect(across.json().result.invoiceIds).toHaveLength(1);
    const renewed = await local(subId);
    expect(renewed.currentPeriodStart.getTime()).toBe(first.currentPeriodEnd.getTime());
    expect(renewed.currentPeriodEnd.getTime()).toBe(first.currentPeriodEnd.getTime() + 30 * DAY);
    expect(renewed.creditedPeriodStart?.getTime()).toBe(first.currentPeriodEnd.getTime());
    expect((await books(user.id)).subscription).toBe(4500);
  });

  it('a long advance renews once per period end crossed, in order', async () => {
    const { user, email, subId } = await subscriber();
    const first = await local(subId);
    const r = await operate({ action: 'advance', email, duration: '65d' });
    expect(r.json().result.invoiceIds).toHaveLength(2);
    const now = await local(subId);
    expect(now.currentPeriodStart.getTime()).toBe(first.currentPeriodStart.getTime() + 60 * DAY);
    expect(now.status).toBe('active');
    expect((await books(user.id)).subscription).toBe(4500);
  });

  it('crossing the period end of a subscription whose cancel was scheduled ends it there: credits expire, plan free', async () => {
    const { cookie, user, email, subId } = await subscriber();
    const first = await local(subId);
    expect((await t.app.inject({ method: 'POST', url: '/api/payment/cancel-subscription', headers: { cookie }, payload: {} })).statusCode).toBe(200);
    await sandbox.idle();
    const r = await operate({ action: 'advance', email, duration: '31d' });
    expect(r.json().result).toMatchObject({ invoiceIds: [], status: 'expired' });
    const ended = await local(subId);
    expect(ended.status).toBe('expired');
    expect(ended.endedAt?.getTime()).toBe(first.currentPeriodEnd.getTime());
    expect((await books(user.id)).subscription).toBe(0);
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0]!.plan).toBe('free');
    // An ended subscription's clock does not move.
    const again = await operate({ action: 'advance', email, duration: '1d' });
    expect(again.statusCode).toBe(502);
    expect(again.json().code).toBe('PAYMENT_PROVIDER_ERROR');
  });

  it('a scheduled downgrade takes over at the period end the clock crosses', async () => {
    const { cookie, user, email, subId } = await subscriber();
    expect((await t.app.inject({ method: 'POST', url: '/api/payment/change-plan', headers: { cookie }, payload: { plan: 'premium' } })).statusCode).toBe(200);
    await sandbox.idle();
    expect((await t.app.inject({ method: 'POST', url: '/api/payment/change-plan', headers: { cookie }, payload: { plan: 'deluxe' } })).json()).toMatchObject({ change: 'downgrade' });
    await sandbox.idle();
    await operate({ action: 'advance', email, duration: '30d' });
    expect((await local(subId)).plan).toBe('deluxe');
    expect((await books(user.id)).subscription).toBe(9500);
  });

  it('bad requests answer VALIDATION_FAILED and move nothing', async () => {
    const { email, subId } = await subscriber();
    const before = (await db().select().from(sandboxObjects).where(eq(sandboxObjects.id, subId)))[0]!.data;
    for (const payload of [
      { action: 'advance', email },
      { action: 'advance', email, duration: '29x' },
      { action: 'advance', email, duration: '0d' },
      { action: 'advance', email, duration: '400d' },
      { action: 'advance', email, duration: 29 },
    ]) {
      const r = await operate(payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await db().select().from(sandboxObjects).where(eq(sandboxObjects.id, subId)))[0]!.data).toEqual(before);
    // Without the operator token or an administrator's session: refused.
    const anon = await t.app.inject({ method: 'POST', url: '/api/admin/billing/sandbox', payload: { action: 'advance', email, duration: '1d' } });
    expect(anon.statusCode).toBe(401);
  });
});
