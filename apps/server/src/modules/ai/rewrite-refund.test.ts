import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { AI_COSTS, AI_LIMITS } from '@dewy/contracts';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fakes/fake-openai.server';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { meteredCalls, creditLedger } from '../../db/schema';
import { getBalance, ledgerSums } from '../credits';
import { meteredSpendKey } from '../tool-jobs';
import { refundUnconfirmedRewrites } from './ai-operations';

/**
 * Issue 21 point 15 (decision 022): a rewrite is charged with its result; when the page's confirmation
 * (POST /api/credit/use) never comes, the page cancelled the apply and the charge is returned by the
 * housekeeping sweep — once, after the confirmation window, whatever runs in parallel. Injected clock.
 */
describe.each(TEST_DATABASES)('unconfirmed rewrite refunds on $name', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await createTestApp(kind, { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'text-model', LLM_API_KEY: 'sk-x', LLM_RETRY_BASE_MS: '5', LLM_TIMEOUT_MS: '5000', LLM_MAX_RETRIES: '0', AI_REQUESTS_PER_MINUTE: '1000' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const balance = async (userId: number) => (await getBalance(t.ctx.database.db, userId)).total;
  const afterWindow = () => new Date(Date.now() + AI_LIMITS.creditUseWindowMs + 60_000);
  const rewrite = async (cookie: string) => {
    fake.script({ kind: 'text', text: 'a brighter cat' });
    const r = await t.app.inject({ method: 'POST', url: '/api/ai/rewrite', headers: { cookie }, payload: { userPrompt: 'brighter', currentPrompt: 'a cat' } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { rewriteId: string; credits: number };
  };
  const refundRows = async (rewriteId: string) =>
    t.ctx.database.db.select().from(creditLedger).where(and(eq(creditLedger.kind, 'refund'), eq(creditLedger.idempotencyKey, `refund:${meteredSpendKey(rewriteId)}`)));

  it('an unconfirmed rewrite is refunded after the window, once under 20 parallel sweeps; a confirmed one never', async () => {
    const u = await signUpAndLogin(t.app);
    const start = await balance(u.user.id);
    const lost = await rewrite(u.cookie); // the page's /api/credit/use never arrives
    const kept = await rewrite(u.cookie);
    const use = await t.app.inject({ method: 'POST', url: '/api/credit/use', headers: { cookie: u.cookie }, payload: { amount: 3, rewriteId: kept.rewriteId } });
    expect(use.statusCode, use.body).toBe(200);
    expect(await balance(u.user.id)).toBe(start - 2 * AI_COSTS.rewrite);

    // Inside the window: nothing is due.
    expect(await refundUnconfirmedRewrites(t.ctx, { now: new Date(Date.now() + AI_LIMITS.creditUseWindowMs - 60_000) })).not.toContain(lost.rewriteId);
    expect(await balance(u.user.id)).toBe(start - 2 * AI_COSTS.rewrite);

    // Past it: 20 sweeps at once (several processes' housekeeping) refund the lost rewrite exactly once.
    const now = afterWindow();
    const runs = await Promise.all(Array.from({ length: 20 }, () => refundUnconfirmedRewrites(t.ctx, { now })));
    expect(runs.flat().filter((id) => id === lost.rewriteId)).toHaveLength(1);
    expect(runs.flat()).not.toContain(kept.rewriteId);
    expect(await refundRows(lost.rewriteId)).toHaveLength(1);
    expect(await refundRows(kept.rewriteId)).toHaveLength(0);
    expect(await balance(u.user.id)).toBe(start - AI_COSTS.rewrite);
    expect(await ledgerSums(t.ctx.database.db, u.user.id)).toEqual(await getBalance(t.ctx.database.db, u.user.id));
    const [row] = await t.ctx.database.db.select().from(meteredCalls).where(eq(meteredCalls.id, lost.rewriteId));
    expect(row).toMatchObject({ status: 'refunded', errorCode: 'NOTHING_TO_CHARGE', confirmedAt: null });

    // A late confirmation of the refunded rewrite charges nothing and says so; another sweep changes nothing.
    const late = await t.app.inject({ method: 'POST', url: '/api/credit/use', headers: { cookie: u.cookie, 'accept-language': 'en' }, payload: { amount: 3, rewriteId: lost.rewriteId } });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('NOTHING_TO_CHARGE');
    expect(await refundUnconfirmedRewrites(t.ctx, { now })).toEqual([]);
    expect(await balance(u.user.id)).toBe(start - AI_COSTS.rewrite);
  });

  it('a confirmation racing the sweep: either confirmed and charged, or refunded and refused — never both, never neither', async () => {
    const u = await signUpAndLogin(t.app);
    const start = await balance(u.user.id);
    const rewrites = [];
    for (let i = 0; i < 8; i++) rewrites.push(await rewrite(u.cookie));
    const now = afterWindow();
    const [confirms] = await Promise.all([
      Promise.all(rewrites.map((r) => t.app.inject({ method: 'POST', url: '/api/credit/use', headers: { cookie: u.cookie }, payload: { amount: 3, rewriteId: r.rewriteId } }))),
      Promise.all(Array.from({ length: 4 }, () => refundUnconfirmedRewrites(t.ctx, { now }))),
    ]);
    let charged = 0;
    for (const [i, r] of rewrites.entries()) {
      const [row] = await t.ctx.database.db.select().from(meteredCalls).where(eq(meteredCalls.id, r.rewriteId));
      const refunds = await refundRows(r.rewriteId);
      if (confirms[i]!.statusCode === 200) {
        expect(row).toMatchObject({ status: 'completed' });
        expect(row!.confirmedAt).not.toBeNull();
        expect(refunds).toHaveLength(0);
        charged++;
      } else {
        expect(confirms[i]!.json().code).toBe('NOTHING_TO_CHARGE');
        expect(row).toMatchObject({ status: 'refunded', confirmedAt: null });
        expect(refunds).toHaveLength(1);
      }
    }
    expect(await balance(u.user.id)).toBe(start - charged * AI_COSTS.rewrite);
    expect(await ledgerSums(t.ctx.database.db, u.user.id)).toEqual(await getBalance(t.ctx.database.db, u.user.id));
  });
});
