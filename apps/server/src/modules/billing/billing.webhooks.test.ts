import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { billingEvents } from '../../db/schema';
import { getBalance, ledgerSums } from '../credits';
import type { SandboxEventBody, SandboxProvider } from './providers/sandbox.provider';

/**
 * The webhook route under attack and under a crowd (decision 012): forged signatures, altered bodies,
 * stale timestamps, replays, duplicates in parallel and events out of order grant nothing extra.
 * Deliveries are captured from the sandbox instead of sent, so each test controls what arrives.
 */
describe.each(TEST_DATABASES)('payment webhooks on $name', (kind) => {
  let t: TestApp;
  let sandbox: SandboxProvider;
  let captured: Buffer[] = [];
  beforeAll(async () => {
    t = await createTestApp(kind);
    sandbox = t.ctx.payments as SandboxProvider;
    sandbox.setDeliverer(async (body) => {
      captured.push(body);
      return 200;
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const deliver = (body: Buffer, headers: Record<string, string> = sandbox.sign(body)) =>
    t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers, payload: body });
  const typeOf = (b: Buffer) => (JSON.parse(b.toString()) as SandboxEventBody).type;

  /** Buys through the real checkout form; returns the webhooks the sandbox wanted to send (not yet delivered). */
  async function buyCaptured(cookie: string, body: { plan: string } | { package: string }) {
    captured = [];
    const url = 'plan' in body ? '/api/payment/checkout' : '/api/payment/credit-checkout';
    const { checkout_url } = (await t.app.inject({ method: 'POST', url, headers: { cookie }, payload: body })).json();
    await t.app.inject({ method: 'POST', url: checkout_url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'card=4242424242424242&action=pay' });
    await sandbox.idle();
    return captured.splice(0);
  }
  const total = async (userId: number) => {
    const b = await getBalance(t.ctx.database.db, userId);
    const s = await ledgerSums(t.ctx.database.db, userId);
    expect(s.total).toBe(b.total);
    return b.total;
  };

  it('forged, altered, unsigned and stale deliveries are refused with 401 and grant nothing', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const [paid] = await buyCaptured(cookie, { package: 'package5' });
    const good = sandbox.sign(paid!);
    const forgedSig = { ...good, 'x-sandbox-signature': good['x-sandbox-signature']!.replace(/v1=./, (m) => (m.endsWith('0') ? 'v1=1' : 'v1=0')) };
    const altered = Buffer.from(paid!.toString().replace('"order.paid"', '"order.paid" '));
    const stale = sandbox.sign(paid!, Math.floor(Date.now() / 1000) - 3600);
    const cases: [Buffer, Record<string, string>][] = [
      [paid!, forgedSig],
      [altered, good],
      [paid!, { 'content-type': 'application/json' }],
      [paid!, stale],
      [paid!, { ...good, 'x-sandbox-signature': 't=1,v1=zz' }],
    ];
    for (const [body, headers] of cases) {
      const r = await deliver(body, headers);
      expect(r.statusCode).toBe(401);
      expect(r.json().code).toBe('WEBHOOK_SIGNATURE_INVALID');
    }
    expect(await total(user.id)).toBe(300);
    // The genuine one still works afterwards.
    expect((await deliver(paid!)).statusCode).toBe(200);
    expect(await total(user.id)).toBe(300 + 9750);
  });

  it('50 concurrent deliveries of one event grant once; a replay later (re-signed) grants nothing', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const [paid] = await buyCaptured(cookie, { package: 'package3' });
    const results = await Promise.all(Array.from({ length: 50 }, () => deliver(paid!)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(await total(user.id)).toBe(300 + 4800);
    const outcomes = results.map((r) => r.json().outcome);
    expect(outcomes.filter((o) => o === 'granted')).toHaveLength(1);
    expect((await deliver(paid!, sandbox.sign(paid!))).json().outcome).toBe('duplicate');
    expect(await total(user.id)).toBe(300 + 4800);
  });

  it('a second event about the same paid order (new event id) cannot grant it again', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const [paid] = await buyCaptured(cookie, { package: 'package1' });
    await deliver(paid!);
    const twin = Buffer.from(JSON.stringify({ ...JSON.parse(paid!.toString()), id: 'evt_twin_' + user.id }));
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(Buffer.from(JSON.stringify({ ...JSON.parse(twin.toString()), id: `evt_twin_${user.id}_${i}` })))));
    expect(all.every((r) => r.statusCode === 200)).toBe(true);
    expect(await total(user.id)).toBe(300 + 1500);
  });

  it('an event claiming a paid order the provider does not have grants nothing (the object is re-read)', async () => {
    const { user } = await signUpAndLogin(t.app);
    const fake = Buffer.from(JSON.stringify({ id: `evt_fake_${user.id}`, type: 'order.paid', created: 0, object: { kind: 'order', id: 'sbx_or_00000000-0000-0000-0000-000000000000' }, user_id: user.id, checkout_id: null }));
    const r = await deliver(fake);
    expect(r.statusCode).toBeGreaterThanOrEqual(400);
    expect(await total(user.id)).toBe(300);
  });

  it('out of order: the refund event first, then the paid event — the order was refunded, so nothing is granted', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const [paid] = await buyCaptured(cookie, { package: 'package2' });
    const { paymentId } = await sandbox.latestOf(user.id);
    captured = [];
    await sandbox.refund(paymentId!);
    await sandbox.idle();
    const [refunded] = captured.splice(0);
    expect(typeOf(refunded!)).toBe('order.refunded');
    expect((await deliver(refunded!)).statusCode).toBe(200);
    expect((await deliver(paid!)).statusCode).toBe(200);
    expect(await total(user.id)).toBe(300);
  });

  it('out of order: a subscription invoice before the subscription event, and a late older renewal, give each period once', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const events = await buyCaptured(cookie, { plan: 'basic' });
    const created = events.find((b) => typeOf(b) === 'subscription.created')!;
    const invoicePaid = events.find((b) => typeOf(b) === 'invoice.paid')!;
    expect((await deliver(invoicePaid)).json().outcome).toBe('granted');
    expect((await deliver(created)).json().outcome).toBe('synced');
    expect(await total(user.id)).toBe(300 + 4500);
    // Two renewals; their invoices arrive newest first.
    const subId = (await sandbox.latestOf(user.id)).subscriptionId!;
    captured = [];
    await sandbox.renew(subId);
    await new Promise((r) => setTimeout(r, 5));
    await sandbox.renew(subId);
    await sandbox.idle();
    const invoices = captured.filter((b) => typeOf(b) === 'invoice.paid');
    expect(invoices).toHaveLength(2);
    expect((await deliver(invoices[1]!)).json().outcome).toBe('granted');
    expect((await deliver(invoices[0]!)).json().outcome).toBe('stale');
    expect(await total(user.id)).toBe(300 + 4500);
    const rows = await t.ctx.database.db.select().from(billingEvents).where(eq(billingEvents.outcome, 'stale'));
    expect(rows.length).toBeGreaterThan(0);
  });

  it('an upgrade invoice that arrives before the period was credited is refused for retry (503), then applies', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const events = await buyCaptured(cookie, { plan: 'basic' });
    const created = events.find((b) => typeOf(b) === 'subscription.created')!;
    const initial = events.find((b) => typeOf(b) === 'invoice.paid')!;
    await deliver(created);
    const subId = (await sandbox.latestOf(user.id)).subscriptionId!;
    captured = [];
    await sandbox.changePlan(subId, 'premium', 'now');
    await sandbox.idle();
    const upgrade = captured.find((b) => typeOf(b) === 'invoice.paid')!;
    const early = await deliver(upgrade);
    expect(early.statusCode).toBe(502);
    expect((await deliver(initial)).statusCode).toBe(200);
    expect((await deliver(upgrade)).json().outcome).toBe('granted');
    expect(await total(user.id)).toBe(300 + 14500);
  });
});
