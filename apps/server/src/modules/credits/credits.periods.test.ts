import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { buildUser } from '../../../test/helpers/factories';
import type { Database, DbOrTx } from '../../db/client';
import { creditLedger } from '../../db/schema';
import { creditPeriods, expireSubscriptionPeriods, getBalance, grant, ledgerSums, refund, refundPart, spend } from './credits.service';

/**
 * Subscription credits per subscription period (issue 21 points 2 and 5, decision 029), on PGlite and
 * PostgreSQL: ending one subscription's period never touches another's, and a refund into a period
 * that has ended expires again at once, with both rows in the ledger. After every step the balances
 * equal the ledger sums and the open periods hold exactly the subscription balance.
 */
describe.each(TEST_DATABASES)('subscription credit periods on $name', (kind) => {
  let database: Database & { dispose(): Promise<void> };
  beforeAll(async () => {
    database = await kind.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const T1 = new Date('2026-01-01T00:00:00Z');
  const T2 = new Date('2026-01-31T00:00:00Z');

  /** Balances = ledger sums, and the open periods' remainders = the subscription bucket. */
  async function books(db: DbOrTx, userId: number) {
    const balance = await getBalance(db, userId);
    expect(await ledgerSums(db, userId)).toEqual(balance);
    const periods = await creditPeriods(db, userId);
    expect(periods.filter((p) => !p.endedAt).reduce((a, p) => a + p.remaining, 0)).toBe(balance.subscription);
    expect(periods.filter((p) => p.endedAt).every((p) => p.remaining === 0)).toBe(true);
    return balance;
  }
  const period = (subscription: string, start: Date) => ({ subscription, start });

  it('two subscriptions, one ends: only its own period expires; the other keeps its credits', async () => {
    const { db } = database;
    const u = await buildUser(db);
    await grant(db, { userId: u.id, amount: 4500, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `a-${u.id}`, period: period(`t:a-${u.id}`, T1) });
    await grant(db, { userId: u.id, amount: 9500, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'deluxe' }, idempotencyKey: `b-${u.id}`, period: period(`t:b-${u.id}`, T2) });
    // The oldest period gives first: 2000 from A.
    await spend(db, { userId: u.id, amount: 2000, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `s-${u.id}` });
    expect((await books(db, u.id)).subscription).toBe(12000);
    const r = await expireSubscriptionPeriods(db, { userId: u.id, subscription: `t:b-${u.id}`, reason: { code: 'subscription_ended' }, idempotencyKey: `end-b-${u.id}` });
    expect(r.expired).toBe(9500);
    expect((await books(db, u.id)).subscription).toBe(2500);
    // A replay changes nothing.
    expect((await expireSubscriptionPeriods(db, { userId: u.id, subscription: `t:b-${u.id}`, reason: { code: 'subscription_ended' }, idempotencyKey: `end-b-${u.id}` })).expired).toBe(0);
    expect((await books(db, u.id)).subscription).toBe(2500);
  });

  it('a spend across two periods records both; ending the second period returns nothing of the first', async () => {
    const { db } = database;
    const u = await buildUser(db);
    await grant(db, { userId: u.id, amount: 100, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `a-${u.id}`, period: period(`t:a-${u.id}`, T1) });
    await grant(db, { userId: u.id, amount: 100, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `b-${u.id}`, period: period(`t:b-${u.id}`, T2) });
    await spend(db, { userId: u.id, amount: 150, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `s-${u.id}` });
    const rows = await db.select().from(creditLedger).where(eq(creditLedger.idempotencyKey, `s-${u.id}`));
    expect(rows.map((r) => r.delta).sort()).toEqual([-100, -50]);
    expect(new Set(rows.map((r) => r.periodId)).size).toBe(2);
    await expireSubscriptionPeriods(db, { userId: u.id, subscription: `t:b-${u.id}`, reason: { code: 'subscription_ended' }, idempotencyKey: `end-b-${u.id}` });
    // A refund: A's 100 back into A (open); B's 50 back and expired again at once (B has ended).
    const back = await refund(db, { spendKey: `s-${u.id}`, reason: { code: 'job_refund', source: 'upscale' } });
    expect(back.returned.subscription).toBe(150);
    expect((await books(db, u.id)).subscription).toBe(100);
    const expired = await db.select().from(creditLedger).where(eq(creditLedger.idempotencyKey, `refund:s-${u.id}:expire`));
    expect(expired.map((e) => [e.kind, e.delta])).toEqual([['expire', -50]]);
  });

  it('a job paid from subscription credits that fails after the renewal: refund and expire rows; only the new period remains', async () => {
    const { db } = database;
    const u = await buildUser(db);
    const sub = `t:r-${u.id}`;
    await grant(db, { userId: u.id, amount: 4500, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `p1-${u.id}`, period: period(sub, T1) });
    await spend(db, { userId: u.id, amount: 300, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `job1-${u.id}` });
    await spend(db, { userId: u.id, amount: 200, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `job2-${u.id}` });
    // Renewal: the old period's remainder expires, the new period's credits arrive.
    await expireSubscriptionPeriods(db, { userId: u.id, subscription: sub, before: T2, reason: { code: 'period_expired' }, idempotencyKey: `e2-${u.id}` });
    await grant(db, { userId: u.id, amount: 4500, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'renewal', plan: 'basic' }, idempotencyKey: `p2-${u.id}`, period: period(sub, T2) });
    expect((await books(db, u.id)).subscription).toBe(4500);
    await refund(db, { spendKey: `job1-${u.id}`, reason: { code: 'job_refund', source: 'upscale' } });
    await refundPart(db, { spendKey: `job2-${u.id}`, amount: 120, reason: { code: 'job_partial_refund', source: 'upscale' } });
    expect((await books(db, u.id)).subscription).toBe(4500);
    const kinds = await db.select({ kind: creditLedger.kind, delta: creditLedger.delta, key: creditLedger.idempotencyKey }).from(creditLedger).where(eq(creditLedger.userId, u.id)).orderBy(creditLedger.id);
    expect(kinds.slice(-4)).toEqual([
      { kind: 'refund', delta: 300, key: `refund:job1-${u.id}` },
      { kind: 'expire', delta: -300, key: `refund:job1-${u.id}:expire` },
      { kind: 'refund', delta: 120, key: `refund:job2-${u.id}` },
      { kind: 'expire', delta: -120, key: `refund:job2-${u.id}:expire` },
    ]);
    // Refunds stay once-only.
    expect((await refund(db, { spendKey: `job1-${u.id}`, reason: { code: 'job_refund', source: 'upscale' } })).replayed).toBe(true);
    expect((await books(db, u.id)).subscription).toBe(4500);
  });

  it('a refund after the subscription ended expires at once: the ended plan holds no credits', async () => {
    const { db } = database;
    const u = await buildUser(db);
    const sub = `t:x-${u.id}`;
    await grant(db, { userId: u.id, amount: 50, bucket: 'one_time', reason: { code: 'pack_purchase', pack: 'package1' }, idempotencyKey: `o-${u.id}` });
    await grant(db, { userId: u.id, amount: 4500, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `p1-${u.id}`, period: period(sub, T1) });
    await spend(db, { userId: u.id, amount: 250, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `job-${u.id}` });
    await expireSubscriptionPeriods(db, { userId: u.id, subscription: sub, reason: { code: 'subscription_ended' }, idempotencyKey: `end-${u.id}` });
    const r = await refund(db, { spendKey: `job-${u.id}`, reason: { code: 'job_refund', source: 'upscale' } });
    expect(r.returned).toEqual({ oneTime: 50, bonus: 0, subscription: 200 });
    expect(await books(db, u.id)).toMatchObject({ oneTime: 50, subscription: 0 });
  });

  it('20 parallel spends and refunds across two periods while one of them ends: the books stay exact', async () => {
    const { db } = database;
    const u = await buildUser(db);
    await grant(db, { userId: u.id, amount: 1000, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `a-${u.id}`, period: period(`t:a-${u.id}`, T1) });
    await grant(db, { userId: u.id, amount: 1000, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `b-${u.id}`, period: period(`t:b-${u.id}`, T2) });
    await Promise.all(Array.from({ length: 20 }, (_, i) => spend(db, { userId: u.id, amount: 70, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `s${i}-${u.id}` })));
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => refund(db, { spendKey: `s${i}-${u.id}`, reason: { code: 'job_refund', source: 'upscale' } })),
      expireSubscriptionPeriods(db, { userId: u.id, subscription: `t:a-${u.id}`, reason: { code: 'subscription_ended' }, idempotencyKey: `end-a-${u.id}` }),
    ]);
    const b = await books(db, u.id);
    // B's 1000 come back whole whatever the order; nothing of A survives.
    expect(b.subscription).toBe(1000);
  });

  it('a subscription grant without its period is refused and changes nothing', async () => {
    const { db } = database;
    const u = await buildUser(db);
    await expect(grant(db, { userId: u.id, amount: 10, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `n-${u.id}` })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await books(db, u.id)).total).toBe(0);
  });
});
