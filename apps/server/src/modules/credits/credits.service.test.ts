import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { buildUser } from '../../../test/helpers/factories';
import type { Database } from '../../db/client';
import { creditLedger } from '../../db/schema';
import { getBalance, grant, ledgerSums, refund, spend } from './credits.service';
import { isAppError } from '../../lib/app-error';

describe.each(TEST_DATABASES)('credit ledger on $name', (kind) => {
  let database: Database & { dispose(): Promise<void> };
  beforeAll(async () => {
    database = await kind.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('50 concurrent spends against a balance that covers 20: exactly 20 succeed, balance 0, ledger sums to balance', async () => {
    const { db } = database;
    const u = await buildUser(db);
    await grant(db, { userId: u.id, amount: 100, bucket: 'one_time', reason: { code: 'pack_purchase', pack: 'package1' }, idempotencyKey: `g-${u.id}` });
    await grant(db, { userId: u.id, amount: 100, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `gs-${u.id}`, period: { subscription: `test:sub-${u.id}`, start: new Date(0) } });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => spend(db, { userId: u.id, amount: 10, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `s-${u.id}-${i}` })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toHaveLength(20);
    expect(refused.every((r) => isAppError((r as PromiseRejectedResult).reason, 'INSUFFICIENT_CREDITS'))).toBe(true);
    const balance = await getBalance(db, u.id);
    expect(balance).toEqual({ oneTime: 0, bonus: 0, subscription: 0, total: 0 });
    expect(await ledgerSums(db, u.id)).toEqual(balance);
  });

  it('spends one-time credits first, then subscription credits', async () => {
    const { db } = database;
    const u = await buildUser(db);
    await grant(db, { userId: u.id, amount: 30, bucket: 'one_time', reason: { code: 'pack_purchase', pack: 'package1' }, idempotencyKey: `g-${u.id}` });
    await grant(db, { userId: u.id, amount: 100, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `gs-${u.id}`, period: { subscription: `test:sub-${u.id}`, start: new Date(0) } });
    const r = await spend(db, { userId: u.id, amount: 80, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `s-${u.id}` });
    expect(r.taken).toEqual({ oneTime: 30, bonus: 0, subscription: 50 });
    expect(r.balance).toEqual({ oneTime: 0, bonus: 0, subscription: 50, total: 50 });
  });

  it('spends one-time, then bonus, then subscription credits (decision 013); a refund returns each to its bucket', async () => {
    const { db } = database;
    const u = await buildUser(db);
    await grant(db, { userId: u.id, amount: 20, bucket: 'one_time', reason: { code: 'pack_purchase', pack: 'package1' }, idempotencyKey: `g-${u.id}` });
    await grant(db, { userId: u.id, amount: 30, bucket: 'bonus', reason: { code: 'affiliate_reward' }, idempotencyKey: `gb-${u.id}` });
    await grant(db, { userId: u.id, amount: 100, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `gs-${u.id}`, period: { subscription: `test:sub-${u.id}`, start: new Date(0) } });
    const r = await spend(db, { userId: u.id, amount: 60, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `s-${u.id}` });
    expect(r.taken).toEqual({ oneTime: 20, bonus: 30, subscription: 10 });
    expect(r.balance).toEqual({ oneTime: 0, bonus: 0, subscription: 90, total: 90 });
    const back = await refund(db, { spendKey: `s-${u.id}`, reason: { code: 'job_refund', source: 'upscale' } });
    expect(back.balance).toEqual({ oneTime: 20, bonus: 30, subscription: 100, total: 150 });
    expect(await ledgerSums(db, u.id)).toEqual(back.balance);
  });

  it('a replayed idempotency key changes nothing', async () => {
    const { db } = database;
    const u = await buildUser(db);
    await grant(db, { userId: u.id, amount: 100, bucket: 'one_time', reason: { code: 'pack_purchase', pack: 'package1' }, idempotencyKey: `g-${u.id}` });
    const again = await grant(db, { userId: u.id, amount: 100, bucket: 'one_time', reason: { code: 'pack_purchase', pack: 'package1' }, idempotencyKey: `g-${u.id}` });
    expect(again.replayed).toBe(true);
    const first = await spend(db, { userId: u.id, amount: 40, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `s-${u.id}` });
    const replay = await spend(db, { userId: u.id, amount: 40, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `s-${u.id}` });
    expect(first.replayed).toBe(false);
    expect(replay.replayed).toBe(true);
    expect(replay.taken).toEqual(first.taken);
    expect((await getBalance(db, u.id)).total).toBe(60);
    const rows = await db.select().from(creditLedger).where(eq(creditLedger.userId, u.id));
    expect(rows).toHaveLength(2);
  });

  it('refunding twice returns credits once, to the buckets they came from', async () => {
    const { db } = database;
    const u = await buildUser(db);
    await grant(db, { userId: u.id, amount: 50, bucket: 'one_time', reason: { code: 'pack_purchase', pack: 'package1' }, idempotencyKey: `g-${u.id}` });
    await grant(db, { userId: u.id, amount: 50, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `gs-${u.id}`, period: { subscription: `test:sub-${u.id}`, start: new Date(0) } });
    await spend(db, { userId: u.id, amount: 80, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `s-${u.id}` });
    const [a, b] = await Promise.all([
      refund(db, { spendKey: `s-${u.id}`, reason: { code: 'job_refund', source: 'upscale' } }),
      refund(db, { spendKey: `s-${u.id}`, reason: { code: 'job_refund', source: 'upscale' } }),
    ]);
    expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
    expect(await getBalance(db, u.id)).toEqual({ oneTime: 50, bonus: 0, subscription: 50, total: 100 });
    expect(await ledgerSums(db, u.id)).toEqual({ oneTime: 50, bonus: 0, subscription: 50, total: 100 });
  });

  it('a spend larger than the balance takes nothing', async () => {
    const { db } = database;
    const u = await buildUser(db);
    await grant(db, { userId: u.id, amount: 79, bucket: 'one_time', reason: { code: 'pack_purchase', pack: 'package1' }, idempotencyKey: `g-${u.id}` });
    await expect(spend(db, { userId: u.id, amount: 80, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `s-${u.id}` })).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect((await getBalance(db, u.id)).total).toBe(79);
    expect(await db.select().from(creditLedger).where(eq(creditLedger.idempotencyKey, `s-${u.id}`))).toHaveLength(0);
  });

  it('the database refuses a negative balance even if code tried (CHECK constraint)', async () => {
    const { db } = database;
    const u = await buildUser(db);
    const err = await db.execute(sql`update users set one_time_credits = -1 where id = ${u.id}`).then(() => null, (e: unknown) => e as Error & { cause?: Error });
    expect(String(err?.cause?.message ?? err?.message)).toMatch(/users_one_time_credits_nonneg/);
    await expect(db.execute(sql`update users set one_time_credits = 5 where id = ${u.id}`)).resolves.toBeDefined();
  });
});
