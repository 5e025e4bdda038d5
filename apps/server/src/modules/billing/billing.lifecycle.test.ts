import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { paySandboxCheckout, startSandboxBillingApp } from '../../../test/helpers/billing';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { creditLedger, users } from '../../db/schema';
import { getBalance, ledgerSums, spend } from '../credits';
import type { SandboxProvider } from './providers/sandbox.provider';

/**
 * The credit lifecycle of decision 012 end to end on the sandbox provider, on PGlite and PostgreSQL:
 * every path goes through the real routes, the hosted checkout form and signed webhooks into
 * POST /api/payment/webhook.
 */
describe.each(TEST_DATABASES)('billing lifecycle on $name', (kind) => {
  let t: TestApp;
  let sandbox: SandboxProvider;
  beforeAll(async () => {
    ({ t, sandbox } = await startSandboxBillingApp(kind));
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (cookie: string, url: string, payload?: object, lang = 'ko') =>
    t.app.inject({ method: 'POST', url, headers: { cookie, 'accept-language': lang }, payload: payload ?? {} });
  const get = (cookie: string, url: string) => t.app.inject({ url, headers: { cookie } });

  /** Starts a checkout and submits the sandbox form with a card; returns the redirect and the checkout id. */
  async function buy(cookie: string, body: { plan: string } | { package: string }, card = '4242 4242 4242 4242') {
    const url = 'plan' in body ? '/api/payment/checkout' : '/api/payment/credit-checkout';
    const res = await post(cookie, url, body);
    expect(res.statusCode, res.body).toBe(200);
    const { checkout_url, checkoutId } = res.json() as { checkout_url: string; checkoutId: string };
    const form = await paySandboxCheckout(t, checkout_url, card);
    return { checkoutId, redirect: form.headers.location as string | undefined, status: form.statusCode };
  }

  async function books(userId: number) {
    const balance = await getBalance(t.ctx.database.db, userId);
    const sums = await ledgerSums(t.ctx.database.db, userId);
    expect(sums.oneTime).toBe(balance.oneTime);
    expect(sums.subscription).toBe(balance.subscription);
    return balance;
  }
  const userRow = async (id: number) => (await t.ctx.database.db.select().from(users).where(eq(users.id, id)))[0]!;
  const status = async (cookie: string) => (await get(cookie, '/api/payment/subscription-status')).json();

  it('a pack purchase grants its one-time credits once the webhook is recorded; the checkout reads completed', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const { checkoutId, redirect, status: code } = await buy(cookie, { package: 'package1' });
    expect(code).toBe(303);
    expect(redirect).toContain(`/payment/success?checkout=${checkoutId}`);
    const co = (await get(cookie, `/api/payment/checkout/${checkoutId}`)).json();
    expect(co).toMatchObject({ status: 'completed', kind: 'pack', package: 'package1', creditsGranted: 1500 });
    const bal = await books(user.id);
    expect(bal.oneTime).toBe(300 + 1500);
    // Another user cannot read it.
    const other = await signUpAndLogin(t.app);
    expect((await get(other.cookie, `/api/payment/checkout/${checkoutId}`)).statusCode).toBe(404);
  });

  it('a declined card grants nothing and sends the browser to the failed page', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const r = await buy(cookie, { package: 'package2' }, '4000 0000 0000 0002');
    expect(r.redirect).toContain('/payment/failed?checkout=');
    expect((await get(cookie, `/api/payment/checkout/${r.checkoutId}`)).json().status).toBe('pending');
    expect((await books(user.id)).total).toBe(300);
  });

  it('subscribe, upgrade (difference now), downgrade (next cycle), renew, cancel (blocks plan change), resume, failed renewal, expiry', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    await buy(cookie, { plan: 'basic' });
    let u = await userRow(user.id);
    expect(u.plan).toBe('basic');
    expect(u.nextRenewalDate).not.toBeNull();
    expect((await books(user.id)).subscription).toBe(4500);
    // A second subscription is refused.
    const again = await post(cookie, '/api/payment/checkout', { plan: 'premium' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_SUBSCRIBED');

    // Spend some, then upgrade: the difference 9500 - 4500 arrives at once.
    await spend(t.ctx.database.db, { userId: user.id, amount: 1000, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `t:${user.id}:1` });
    const up = await post(cookie, '/api/payment/change-plan', { plan: 'deluxe' });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ success: true, change: 'upgrade', plan: 'deluxe', cancelScheduleRemoved: false });
    await sandbox.idle();
    expect((await userRow(user.id)).plan).toBe('deluxe');
    // one-time first: 300 welcome went first, 700 from subscription.
    expect(await books(user.id)).toMatchObject({ oneTime: 0, subscription: 4500 - 700 + 5000 });

    // Downgrade: deluxe stays this period, basic from the next.
    const down = await post(cookie, '/api/payment/change-plan', { plan: 'basic' }, 'en');
    expect(down.json()).toMatchObject({ change: 'downgrade', plan: 'deluxe', nextPlan: 'basic', message: 'The new plan applies from your next billing cycle.' });
    await sandbox.idle();
    let st = await status(cookie);
    expect(st).toMatchObject({ hasSubscription: true, plan: 'deluxe', nextPlan: 'basic' });
    expect(st.subscription.data.scheduled_change).toMatchObject({ action: 'downgrade', plan: 'basic' });

    // Renewal: the unspent subscription credits expire, basic's 4500 arrive, plan becomes basic.
    const subId = (await userRow(user.id)).subscriptionId!;
    await sandbox.renew(subId);
    await sandbox.idle();
    expect(await books(user.id)).toMatchObject({ oneTime: 0, subscription: 4500 });
    st = await status(cookie);
    expect(st).toMatchObject({ plan: 'basic', nextPlan: null });

    // Cancel: scheduled until the period end; plan change is blocked (000 §5); cancel twice is idempotent.
    const c1 = await post(cookie, '/api/payment/cancel-subscription');
    expect(c1.json()).toMatchObject({ success: true, alreadyScheduled: false, scheduled: true });
    const c2 = await post(cookie, '/api/payment/cancel-subscription');
    expect(c2.json()).toMatchObject({ alreadyScheduled: true });
    u = await userRow(user.id);
    expect(u.cancelledAt).not.toBeNull();
    expect(u.subscriptionEndDate!.getTime()).toBeGreaterThan(Date.now());
    expect((await status(cookie)).subscription.data.scheduled_change.action).toBe('cancel');
    const blocked = await post(cookie, '/api/payment/change-plan', { plan: 'premium' });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toMatchObject({ code: 'SUBSCRIPTION_CANCEL_SCHEDULED', error: '구독 취소가 예약되어 있습니다. 먼저 구독 취소를 철회한 뒤 플랜을 변경해주세요.' });

    // Resume.
    const r = await post(cookie, '/api/payment/resume-subscription');
    expect(r.json()).toMatchObject({ success: true, plan: 'basic' });
    u = await userRow(user.id);
    expect(u.cancelledAt).toBeNull();
    expect(u.nextRenewalDate).not.toBeNull();

    // A failed renewal: past_due, nothing granted, nothing expired.
    await sandbox.failRenewal(subId);
    await sandbox.idle();
    expect((await status(cookie)).subscription.data.attributes.status).toBe('past_due');
    expect((await books(user.id)).subscription).toBe(4500);

    // Buy a pack, then cancel and let the period end: subscription credits expire, one-time remain, plan free.
    await buy(cookie, { package: 'package1' });
    await post(cookie, '/api/payment/cancel-subscription');
    await sandbox.renew(subId); // at the period end a scheduled cancel ends the subscription
    await sandbox.idle();
    expect(await books(user.id)).toMatchObject({ oneTime: 1500, subscription: 0 });
    u = await userRow(user.id);
    expect(u.plan).toBe('free');
    st = await status(cookie);
    expect(st).toMatchObject({ hasSubscription: false, plan: 'free' });
    expect(st.subscription.data.attributes.status).toBe('expired');
    const ended = await post(cookie, '/api/payment/resume-subscription');
    expect(ended.json().code).toBe('SUBSCRIPTION_ENDED');
    // After the end a new subscription may start.
    await buy(cookie, { plan: 'premium' });
    expect((await userRow(user.id)).plan).toBe('premium');
    expect(await books(user.id)).toMatchObject({ oneTime: 1500, subscription: 14500 });

    const kinds = await t.ctx.database.db.select({ kind: creditLedger.kind, delta: creditLedger.delta, bucket: creditLedger.bucket, reason: creditLedger.reasonCode, params: creditLedger.reasonParams }).from(creditLedger).where(eq(creditLedger.userId, user.id)).orderBy(creditLedger.id);
    // The ledger of one full lifecycle, quoted in the closing note.
    console.log(`[${kind.name}] ledger of one lifecycle:\n${kinds.map((k) => `  ${k.kind} ${k.bucket} ${k.delta} (${k.reason} ${JSON.stringify(k.params)})`).join('\n')}`);
  });

  it('a refund takes back what the pack granted; credits already spent become a debt the next grant settles', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    await buy(cookie, { package: 'package1' });
    await spend(t.ctx.database.db, { userId: user.id, amount: 1700, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `t:${user.id}:r` });
    expect((await books(user.id)).total).toBe(100);
    const { paymentId } = await sandbox.latestOf(user.id);
    await sandbox.refund(paymentId!);
    await sandbox.idle();
    expect((await books(user.id)).total).toBe(0);
    expect((await userRow(user.id)).creditDebt).toBe(1400);
    await buy(cookie, { package: 'package2' });
    expect(await books(user.id)).toMatchObject({ oneTime: 3000 - 1400 });
    expect((await userRow(user.id)).creditDebt).toBe(0);
  });

  it('checkouts refuse unknown plans and packs, extra fields and signed-out callers, and change nothing', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    for (const [url, body] of [
      ['/api/payment/checkout', { plan: 'gold' }],
      ['/api/payment/checkout', { plan: 'basic', userId: 1 }],
      ['/api/payment/credit-checkout', { package: 'package9' }],
      ['/api/payment/change-plan', { plan: 'free' }],
    ] as const) {
      const r = await post(cookie, url, body, 'en');
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/payment/checkout', payload: { plan: 'basic' } })).statusCode).toBe(401);
    const none = await post(cookie, '/api/payment/change-plan', { plan: 'deluxe' }, 'en');
    expect(none.json()).toMatchObject({ code: 'NO_SUBSCRIPTION', error: 'You do not have an active subscription.' });
    expect((await books(user.id)).total).toBe(300);
  });
});

describe.each(TEST_DATABASES)('payments not configured on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { PAYMENTS_PROVIDER: 'stripe' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a provider without its keys is not replaced by another: every call says so and nothing is charged', async () => {
    expect(t.ctx.payments).toBeNull();
    const { cookie, user } = await signUpAndLogin(t.app);
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/credit-checkout', headers: { cookie }, payload: { package: 'package1' } });
    expect(r.statusCode).toBe(503);
    expect(r.json().code).toBe('PAYMENTS_NOT_CONFIGURED');
    const st = (await t.app.inject({ url: '/api/payment/subscription-status', headers: { cookie } })).json();
    expect(st.provider).toEqual({ name: 'stripe', configured: false });
    expect((await t.app.inject({ url: '/sandbox/checkout/x' })).statusCode).not.toBe(200);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
  });
});
