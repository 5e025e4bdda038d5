import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { creditLedger, users } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';

export type CreditBucket = 'one_time' | 'subscription';

/** A user's balances in credits. `total` is what the page shows. */
export interface CreditBalance {
  oneTime: number;
  subscription: number;
  total: number;
}

export interface SpendResult {
  /** Credits taken from each bucket by this operation. */
  taken: { oneTime: number; subscription: number };
  balance: CreditBalance;
  /** True when the idempotency key had already been applied; nothing changed this time. */
  replayed: boolean;
}

export interface RefundResult {
  returned: { oneTime: number; subscription: number };
  balance: CreditBalance;
  replayed: boolean;
}

async function lockBalance(tx: DbOrTx, userId: number): Promise<CreditBalance & { debt: number }> {
  const rows = await tx
    .select({ oneTime: users.oneTimeCredits, subscription: users.subscriptionCredits, debt: users.creditDebt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND', { message: `user ${userId} not found` });
  return { ...row, total: row.oneTime + row.subscription };
}

async function applyDelta(tx: DbOrTx, userId: number, oneTime: number, subscription: number): Promise<CreditBalance> {
  const rows = await tx
    .update(users)
    .set({
      oneTimeCredits: sql`${users.oneTimeCredits} + ${oneTime}`,
      subscriptionCredits: sql`${users.subscriptionCredits} + ${subscription}`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId))
    .returning({ oneTime: users.oneTimeCredits, subscription: users.subscriptionCredits });
  const row = rows[0]!;
  return { ...row, total: row.oneTime + row.subscription };
}

async function entriesFor(tx: DbOrTx, idempotencyKey: string) {
  return tx.select().from(creditLedger).where(eq(creditLedger.idempotencyKey, idempotencyKey));
}

/** Current balances of a user (no lock). @throws AppError NOT_FOUND */
export async function getBalance(db: DbOrTx, userId: number): Promise<CreditBalance> {
  const rows = await db.select({ oneTime: users.oneTimeCredits, subscription: users.subscriptionCredits }).from(users).where(eq(users.id, userId));
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND');
  return { ...row, total: row.oneTime + row.subscription };
}

/**
 * Adds `amount` credits (> 0) to one bucket, once per idempotency key (a replay changes nothing).
 * Used for the welcome grant, purchases and subscription periods. When the user owes credits (a
 * refund that could not take back what was already spent, decision 012), the grant settles that debt
 * first: a `reclaim` row under `<key>:settle` takes min(debt, amount) back in the same transaction.
 * @returns the balance after the grant and the debt it settled.
 */
export async function grant(
  db: DbOrTx,
  p: { userId: number; amount: number; bucket: CreditBucket; reason: string; reference?: string; idempotencyKey: string },
): Promise<{ balance: CreditBalance; replayed: boolean; settledDebt: number }> {
  if (!Number.isInteger(p.amount) || p.amount <= 0) throw new AppError('VALIDATION_FAILED', { message: 'grant amount must be a positive integer' });
  return inTransaction(db, async (tx) => {
    const before = await lockBalance(tx, p.userId);
    if ((await entriesFor(tx, p.idempotencyKey)).length > 0) return { balance: before, replayed: true, settledDebt: 0 };
    const base = { userId: p.userId, bucket: p.bucket, reason: p.reason, reference: p.reference ?? null };
    await tx.insert(creditLedger).values({ ...base, delta: p.amount, kind: 'grant', idempotencyKey: p.idempotencyKey });
    const settle = Math.min(before.debt, p.amount);
    if (settle > 0) {
      await tx.insert(creditLedger).values({ ...base, delta: -settle, kind: 'reclaim', reason: 'debt settlement', idempotencyKey: `${p.idempotencyKey}:settle` });
      await tx.update(users).set({ creditDebt: sql`${users.creditDebt} - ${settle}` }).where(eq(users.id, p.userId));
    }
    const net = p.amount - settle;
    const balance = net > 0 ? await applyDelta(tx, p.userId, p.bucket === 'one_time' ? net : 0, p.bucket === 'subscription' ? net : 0) : before;
    return { balance: { oneTime: balance.oneTime, subscription: balance.subscription, total: balance.total }, replayed: false, settledDebt: settle };
  });
}

/**
 * Expires what is left in one bucket (subscription credits at a new period or at the subscription's
 * end, spec 000 §5), once per key: one `expire` row of minus the bucket's balance. Nothing is written
 * when the bucket is empty. @returns credits expired (0 on replay or empty bucket).
 */
export async function expireBucket(
  db: DbOrTx,
  p: { userId: number; bucket: CreditBucket; reason: string; reference?: string; idempotencyKey: string },
): Promise<{ expired: number; balance: CreditBalance }> {
  return inTransaction(db, async (tx) => {
    const before = await lockBalance(tx, p.userId);
    if ((await entriesFor(tx, p.idempotencyKey)).length > 0) return { expired: 0, balance: before };
    const amount = p.bucket === 'one_time' ? before.oneTime : before.subscription;
    if (amount <= 0) return { expired: 0, balance: before };
    await tx.insert(creditLedger).values({
      userId: p.userId, bucket: p.bucket, delta: -amount, kind: 'expire', reason: p.reason, reference: p.reference ?? null, idempotencyKey: p.idempotencyKey,
    });
    const balance = await applyDelta(tx, p.userId, p.bucket === 'one_time' ? -amount : 0, p.bucket === 'subscription' ? -amount : 0);
    return { expired: amount, balance };
  });
}

/**
 * Takes back `amount` credits a refunded payment granted (decision 012): from `bucket` first, then the
 * other bucket, never below zero; what cannot be taken (already spent) is added to the user's credit
 * debt, which later grants settle. Once per key. @returns what each bucket gave and the debt added.
 */
export async function reclaim(
  db: DbOrTx,
  p: { userId: number; amount: number; bucket: CreditBucket; reason: string; reference?: string; idempotencyKey: string },
): Promise<{ taken: { oneTime: number; subscription: number }; debtAdded: number; replayed: boolean }> {
  if (!Number.isInteger(p.amount) || p.amount <= 0) throw new AppError('VALIDATION_FAILED', { message: 'reclaim amount must be a positive integer' });
  return inTransaction(db, async (tx) => {
    const before = await lockBalance(tx, p.userId);
    if ((await entriesFor(tx, p.idempotencyKey)).length > 0) return { taken: { oneTime: 0, subscription: 0 }, debtAdded: 0, replayed: true };
    const first = p.bucket === 'one_time' ? before.oneTime : before.subscription;
    const second = p.bucket === 'one_time' ? before.subscription : before.oneTime;
    const fromFirst = Math.min(first, p.amount);
    const fromSecond = Math.min(second, p.amount - fromFirst);
    const debt = p.amount - fromFirst - fromSecond;
    const other: CreditBucket = p.bucket === 'one_time' ? 'subscription' : 'one_time';
    const base = { userId: p.userId, kind: 'reclaim' as const, reason: p.reason, reference: p.reference ?? null, idempotencyKey: p.idempotencyKey };
    const rows: (typeof creditLedger.$inferInsert)[] = [];
    if (fromFirst > 0) rows.push({ ...base, bucket: p.bucket, delta: -fromFirst });
    if (fromSecond > 0) rows.push({ ...base, bucket: other, delta: -fromSecond });
    if (rows.length) await tx.insert(creditLedger).values(rows);
    const taken = p.bucket === 'one_time' ? { oneTime: fromFirst, subscription: fromSecond } : { oneTime: fromSecond, subscription: fromFirst };
    await applyDelta(tx, p.userId, -taken.oneTime, -taken.subscription);
    if (debt > 0) await tx.update(users).set({ creditDebt: sql`${users.creditDebt} + ${debt}` }).where(eq(users.id, p.userId));
    return { taken, debtAdded: debt, replayed: false };
  });
}

/**
 * Takes `amount` credits (> 0), one-time credits first, then subscription credits (spec 000 §5), all or
 * nothing. The user row is locked (`SELECT … FOR UPDATE`) so concurrent spends serialise; the CHECK
 * constraints on the balances are the last line of defence. A replayed idempotency key returns the
 * first result and changes nothing.
 * @throws AppError INSUFFICIENT_CREDITS when the balance does not cover `amount`; NOT_FOUND for an unknown user.
 */
export async function spend(
  db: DbOrTx,
  p: { userId: number; amount: number; reason: string; reference?: string; idempotencyKey: string },
): Promise<SpendResult> {
  if (!Number.isInteger(p.amount) || p.amount <= 0) throw new AppError('VALIDATION_FAILED', { message: 'spend amount must be a positive integer' });
  return inTransaction(db, async (tx) => {
    const before = await lockBalance(tx, p.userId);
    const previous = await entriesFor(tx, p.idempotencyKey);
    if (previous.length > 0) {
      const taken = { oneTime: 0, subscription: 0 };
      for (const e of previous) {
        if (e.userId !== p.userId || e.kind !== 'spend') throw new AppError('VALIDATION_FAILED', { message: 'idempotency key reused for another operation' });
        if (e.bucket === 'one_time') taken.oneTime = -e.delta;
        else taken.subscription = -e.delta;
      }
      return { taken, balance: before, replayed: true };
    }
    if (before.total < p.amount) throw new AppError('INSUFFICIENT_CREDITS');
    const fromOneTime = Math.min(before.oneTime, p.amount);
    const fromSubscription = p.amount - fromOneTime;
    const rows: (typeof creditLedger.$inferInsert)[] = [];
    const base = { userId: p.userId, kind: 'spend' as const, reason: p.reason, reference: p.reference ?? null, idempotencyKey: p.idempotencyKey };
    if (fromOneTime > 0) rows.push({ ...base, bucket: 'one_time', delta: -fromOneTime });
    if (fromSubscription > 0) rows.push({ ...base, bucket: 'subscription', delta: -fromSubscription });
    await tx.insert(creditLedger).values(rows);
      const balance = await applyDelta(tx, p.userId, -fromOneTime, -fromSubscription);
    return { taken: { oneTime: fromOneTime, subscription: fromSubscription }, balance, replayed: false };
  });
}

/**
 * Returns the credits of a spend to the buckets they came from, once: the refund rows carry the key
 * `refund:<spendKey>`, so a second refund is a no-op (`replayed: true`).
 * @throws AppError NOT_FOUND when no spend with that key exists.
 */
export async function refund(db: DbOrTx, p: { spendKey: string; reason: string }): Promise<RefundResult> {
  return inTransaction(db, async (tx) => {
    const spent = (await entriesFor(tx, p.spendKey)).filter((e) => e.kind === 'spend');
    if (spent.length === 0) throw new AppError('NOT_FOUND', { message: `no spend ${p.spendKey}` });
    const userId = spent[0]!.userId;
    const before = await lockBalance(tx, userId);
    const refundKey = `refund:${p.spendKey}`;
    const existing = await entriesFor(tx, refundKey);
    if (existing.length > 0) {
      const returned = { oneTime: 0, subscription: 0 };
      for (const e of existing) returned[e.bucket === 'one_time' ? 'oneTime' : 'subscription'] = e.delta;
      return { returned, balance: before, replayed: true };
    }
    const returned = { oneTime: 0, subscription: 0 };
    for (const e of spent) returned[e.bucket === 'one_time' ? 'oneTime' : 'subscription'] = -e.delta;
    await tx.insert(creditLedger).values(
      spent.map((e) => ({
        userId,
        delta: -e.delta,
        bucket: e.bucket,
        kind: 'refund' as const,
        reason: p.reason,
        reference: e.reference,
        idempotencyKey: refundKey,
      })),
    );
    const balance = await applyDelta(tx, userId, returned.oneTime, returned.subscription);
    return { returned, balance, replayed: false };
  });
}

/** Sum of a user's ledger per bucket; equals the balances when the books are right (used by tests and audits). */
export async function ledgerSums(db: DbOrTx, userId: number): Promise<CreditBalance> {
  const rows = await db
    .select({ bucket: creditLedger.bucket, sum: sql<string>`coalesce(sum(${creditLedger.delta}), 0)` })
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId)))
    .groupBy(creditLedger.bucket);
  const oneTime = Number(rows.find((r) => r.bucket === 'one_time')?.sum ?? 0);
  const subscription = Number(rows.find((r) => r.bucket === 'subscription')?.sum ?? 0);
  return { oneTime, subscription, total: oneTime + subscription };
}
