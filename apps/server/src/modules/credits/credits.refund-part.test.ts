import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { buildUser } from '../../../test/helpers/factories';
import type { Database } from '../../db/client';
import { isAppError } from '../../lib/app-error';
import { getBalance, grant, ledgerSums, refund, refundPart, spend } from './credits.service';

/** Partial refunds (decision 024: a partial generation gives back the missing images' credits). */
describe.each(TEST_DATABASES)('partial refund on $name', (kind) => {
  let database: Database & { dispose(): Promise<void> };
  beforeAll(async () => {
    database = await kind.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  async function userWithSpend(oneTime: number, subscription: number, amount: number) {
    const { db } = database;
    const u = await buildUser(db);
    await grant(db, { userId: u.id, amount: oneTime, bucket: 'one_time', reason: { code: 'pack_purchase', pack: 'package1' }, idempotencyKey: `g1-${u.id}` });
    if (subscription > 0) await grant(db, { userId: u.id, amount: subscription, bucket: 'subscription', reason: { code: 'plan_period', invoice: 'initial', plan: 'basic' }, idempotencyKey: `gs-${u.id}`, period: { subscription: `test:sub-${u.id}`, start: new Date(0) } });
    await spend(db, { userId: u.id, amount, reason: { code: 'tool_job', source: 'kling' }, idempotencyKey: `sp-${u.id}` });
    return u;
  }

  it('returns the amount to the buckets the spend came from, one-time first, and only once (a later full refund is a replay)', async () => {
    const { db } = database;
    const u = await userWithSpend(20, 100, 60); // took 20 one-time + 40 subscription
    const base = (await getBalance(db, u.id)).total;
    const r = await refundPart(db, { spendKey: `sp-${u.id}`, amount: 30, reason: { code: 'job_partial_refund', source: 'upscale' } });
    expect(r.returned).toEqual({ oneTime: 20, bonus: 0, subscription: 10 });
    expect(await getBalance(db, u.id)).toMatchObject({ oneTime: 20, subscription: 70, total: base + 30 });
    expect((await refundPart(db, { spendKey: `sp-${u.id}`, amount: 30, reason: { code: 'job_refund', source: 'upscale' } })).replayed).toBe(true);
    expect((await refund(db, { spendKey: `sp-${u.id}`, reason: { code: 'job_refund', source: 'upscale' } })).replayed).toBe(true);
    expect((await getBalance(db, u.id)).total).toBe(base + 30);
    expect(await ledgerSums(db, u.id)).toEqual(await getBalance(db, u.id));
  });

  it('refuses more than was spent, a non-positive amount, an unknown spend — changing nothing', async () => {
    const { db } = database;
    const u = await userWithSpend(100, 0, 45);
    const before = await getBalance(db, u.id);
    for (const [amount, code] of [[46, 'VALIDATION_FAILED'], [0, 'VALIDATION_FAILED'], [1.5, 'VALIDATION_FAILED']] as const) {
      const err = await refundPart(db, { spendKey: `sp-${u.id}`, amount, reason: { code: 'job_refund', source: 'upscale' } }).catch((e: unknown) => e);
      expect(isAppError(err, code)).toBe(true);
    }
    expect(isAppError(await refundPart(db, { spendKey: 'nope', amount: 1, reason: { code: 'job_refund', source: 'upscale' } }).catch((e: unknown) => e), 'NOT_FOUND')).toBe(true);
    expect(await getBalance(db, u.id)).toEqual(before);
  });

  it('20 parallel partial refunds of one spend: exactly one is applied', async () => {
    const { db } = database;
    const u = await userWithSpend(100, 0, 60);
    const results = await Promise.all(Array.from({ length: 20 }, () => refundPart(db, { spendKey: `sp-${u.id}`, amount: 15, reason: { code: 'job_partial_refund', source: 'upscale' } }).catch((e: unknown) => e)));
    const applied = results.filter((r) => r && typeof r === 'object' && 'replayed' in r && r.replayed === false);
    expect(applied).toHaveLength(1);
    expect((await getBalance(db, u.id)).total).toBe(100 - 60 + 15);
    expect(await ledgerSums(db, u.id)).toEqual(await getBalance(db, u.id));
  });
});
