import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { creditLedger, users } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { forgetUser } from '../auth/session-cache';

/** The three credit buckets, in spending order (decision 013): one-time, then bonus, then subscription. */
export const SPENDING_ORDER = ['one_time', 'bonus', 'subscription'] as const;
export type CreditBucket = (typeof SPENDING_ORDER)[number];

/** Credits per bucket. */
export interface BucketAmounts {
  oneTime: number;
  bonus: number;
  subscription: number;
}

/** A user's balances in credits. `total` (the sum of the buckets) is what the page shows. */
export interface CreditBalance extends BucketAmounts {
  total: number;
}

export interface SpendResult {
  /** Credits taken from each bucket by this operation. */
  taken: BucketAmounts;
  balance: CreditBalance;
  /** True when the idempotency key had already been applied; nothing changed this time. */
  replayed: boolean;
}

export interface RefundResult {
  returned: BucketAmounts;
  balance: CreditBalance;
  replayed: boolean;
}

const FIELD: Record<CreditBucket, keyof BucketAmounts> = { one_time: 'oneTime', bonus: 'bonus', subscription: 'subscription' };
const zero = (): BucketAmounts => ({ oneTime: 0, bonus: 0, subscription: 0 });
const withTotal = (b: BucketAmounts): CreditBalance => ({ oneTime: b.oneTime, bonus: b.bonus, subscription: b.subscription, total: b.oneTime + b.bonus + b.subscription });
const BALANCE_COLUMNS = { oneTime: users.oneTimeCredits, bonus: users.bonusCredits, subscription: users.subscriptionCredits };

async function lockBalance(tx: DbOrTx, userId: number): Promise<CreditBalance & { debt: number }> {
  const rows = await tx
    .select({ ...BALANCE_COLUMNS, debt: users.creditDebt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND', { message: `user ${userId} not found` });
  return { ...withTotal(row), debt: row.debt };
}

/**
 * Adds signed amounts to the bucket balances (the CHECK constraints keep them ≥ 0). The user's cached
 * sessions are forgotten in this process at once (their answer shows the balance; decision 026); other
 * processes learn it from the users trigger at commit.
 */
async function applyDelta(tx: DbOrTx, userId: number, d: Partial<BucketAmounts>): Promise<CreditBalance> {
  const rows = await tx
    .update(users)
    .set({
      oneTimeCredits: sql`${users.oneTimeCredits} + ${d.oneTime ?? 0}`,
      bonusCredits: sql`${users.bonusCredits} + ${d.bonus ?? 0}`,
      subscriptionCredits: sql`${users.subscriptionCredits} + ${d.subscription ?? 0}`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId))
    .returning(BALANCE_COLUMNS);
  forgetUser(userId);
  return withTotal(rows[0]!);
}

const negate = (b: BucketAmounts): BucketAmounts => ({ oneTime: -b.oneTime, bonus: -b.bonus, subscription: -b.subscription });

/** Ledger rows for per-bucket amounts (zero buckets skipped); `sign` −1 writes them as debits. */
function rowsFor(amounts: BucketAmounts, sign: 1 | -1, base: Omit<typeof creditLedger.$inferInsert, 'bucket' | 'delta'>): (typeof creditLedger.$inferInsert)[] {
  return SPENDING_ORDER.filter((b) => amounts[FIELD[b]] > 0).map((b) => ({ ...base, bucket: b, delta: sign * amounts[FIELD[b]] }));
}

/** Takes `amount` from `available` bucket by bucket in `order`; returns what each gave (may fall short). */
function takeInOrder(available: BucketAmounts, amount: number, order: readonly CreditBucket[]): BucketAmounts {
  const taken = zero();
  let left = amount;
  for (const b of order) {
    const n = Math.min(available[FIELD[b]], left);
    taken[FIELD[b]] = n;
    left -= n;
  }
  return taken;
}
const sumOf = (b: BucketAmounts) => b.oneTime + b.bonus + b.subscription;

async function entriesFor(tx: DbOrTx, idempotencyKey: string) {
  return tx.select().from(creditLedger).where(eq(creditLedger.idempotencyKey, idempotencyKey));
}

/** Current balances of a user (no lock). @throws AppError NOT_FOUND */
export async function getBalance(db: DbOrTx, userId: number): Promise<CreditBalance> {
  const rows = await db.select(BALANCE_COLUMNS).from(users).where(eq(users.id, userId));
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND');
  return withTotal(row);
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
    if ((await entriesFor(tx, p.idempotencyKey)).length > 0) return { balance: withTotal(before), replayed: true, settledDebt: 0 };
    const base = { userId: p.userId, bucket: p.bucket, reason: p.reason, reference: p.reference ?? null };
    await tx.insert(creditLedger).values({ ...base, delta: p.amount, kind: 'grant', idempotencyKey: p.idempotencyKey });
    const settle = Math.min(before.debt, p.amount);
    if (settle > 0) {
      await tx.insert(creditLedger).values({ ...base, delta: -settle, kind: 'reclaim', reason: 'debt settlement', idempotencyKey: `${p.idempotencyKey}:settle` });
      await tx.update(users).set({ creditDebt: sql`${users.creditDebt} - ${settle}` }).where(eq(users.id, p.userId));
      forgetUser(p.userId);
    }
    const net = p.amount - settle;
    const balance = net > 0 ? await applyDelta(tx, p.userId, { [FIELD[p.bucket]]: net }) : withTotal(before);
    return { balance, replayed: false, settledDebt: settle };
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
    if ((await entriesFor(tx, p.idempotencyKey)).length > 0) return { expired: 0, balance: withTotal(before) };
    const amount = before[FIELD[p.bucket]];
    if (amount <= 0) return { expired: 0, balance: withTotal(before) };
    await tx.insert(creditLedger).values({
      userId: p.userId, bucket: p.bucket, delta: -amount, kind: 'expire', reason: p.reason, reference: p.reference ?? null, idempotencyKey: p.idempotencyKey,
    });
    const balance = await applyDelta(tx, p.userId, { [FIELD[p.bucket]]: -amount });
    return { expired: amount, balance };
  });
}

/**
 * Takes back `amount` credits a refunded payment granted (decision 012): from `bucket` first, then the
 * others in spending order, never below zero; what cannot be taken (already spent) is added to the user's credit
 * debt, which later grants settle. Once per key. @returns what each bucket gave and the debt added.
 */
export async function reclaim(
  db: DbOrTx,
  p: { userId: number; amount: number; bucket: CreditBucket; reason: string; reference?: string; idempotencyKey: string },
): Promise<{ taken: BucketAmounts; debtAdded: number; replayed: boolean }> {
  if (!Number.isInteger(p.amount) || p.amount <= 0) throw new AppError('VALIDATION_FAILED', { message: 'reclaim amount must be a positive integer' });
  return inTransaction(db, async (tx) => {
    const before = await lockBalance(tx, p.userId);
    if ((await entriesFor(tx, p.idempotencyKey)).length > 0) return { taken: zero(), debtAdded: 0, replayed: true };
    const order = [p.bucket, ...SPENDING_ORDER.filter((b) => b !== p.bucket)];
    const taken = takeInOrder(before, p.amount, order);
    const debt = p.amount - sumOf(taken);
    const rows = rowsFor(taken, -1, { userId: p.userId, kind: 'reclaim', reason: p.reason, reference: p.reference ?? null, idempotencyKey: p.idempotencyKey });
    if (rows.length) await tx.insert(creditLedger).values(rows);
    await applyDelta(tx, p.userId, negate(taken));
    if (debt > 0) {
      await tx.update(users).set({ creditDebt: sql`${users.creditDebt} + ${debt}` }).where(eq(users.id, p.userId));
      forgetUser(p.userId);
    }
    return { taken, debtAdded: debt, replayed: false };
  });
}

/**
 * Takes `amount` credits (> 0) in spending order — one-time, bonus, then subscription (spec 000 §5
 * puts one-time before subscription; decision 013 places bonus between) — all or
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
      const taken = zero();
      for (const e of previous) {
        if (e.userId !== p.userId || e.kind !== 'spend') throw new AppError('VALIDATION_FAILED', { message: 'idempotency key reused for another operation' });
        taken[FIELD[e.bucket]] = -e.delta;
      }
      return { taken, balance: withTotal(before), replayed: true };
    }
    if (before.total < p.amount) throw new AppError('INSUFFICIENT_CREDITS');
    const taken = takeInOrder(before, p.amount, SPENDING_ORDER);
    await tx.insert(creditLedger).values(rowsFor(taken, -1, { userId: p.userId, kind: 'spend', reason: p.reason, reference: p.reference ?? null, idempotencyKey: p.idempotencyKey }));
    const balance = await applyDelta(tx, p.userId, negate(taken));
    return { taken, balance, replayed: false };
  });
}

/**
 * The common start of a refund: the spend's rows (NOT_FOUND without any), its user's balance row locked,
 * and — when the spend was refunded before, wholly or in part — that earlier refund's answer
 * (`replayed: true`), since a spend is refunded at most once under the key `refund:<spendKey>`.
 */
async function openRefund(tx: DbOrTx, spendKey: string) {
  const spent = (await entriesFor(tx, spendKey)).filter((e) => e.kind === 'spend');
  if (spent.length === 0) throw new AppError('NOT_FOUND', { message: `no spend ${spendKey}` });
  const userId = spent[0]!.userId;
  const before = await lockBalance(tx, userId);
  const refundKey = `refund:${spendKey}`;
  const existing = await entriesFor(tx, refundKey);
  let replay: RefundResult | null = null;
  if (existing.length > 0) {
    const returned = zero();
    for (const e of existing) returned[FIELD[e.bucket]] = e.delta;
    replay = { returned, balance: withTotal(before), replayed: true };
  }
  return { spent, userId, refundKey, replay };
}

/**
 * Returns the credits of a spend to the buckets they came from, once: the refund rows carry the key
 * `refund:<spendKey>`, so a second refund is a no-op (`replayed: true`).
 * @throws AppError NOT_FOUND when no spend with that key exists.
 */
export async function refund(db: DbOrTx, p: { spendKey: string; reason: string }): Promise<RefundResult> {
  return inTransaction(db, async (tx) => {
    const { spent, userId, refundKey, replay } = await openRefund(tx, p.spendKey);
    if (replay) return replay;
    const returned = zero();
    for (const e of spent) returned[FIELD[e.bucket]] = -e.delta;
    await tx.insert(creditLedger).values(
      spent.map((e) => ({ userId, delta: -e.delta, bucket: e.bucket, kind: 'refund' as const, reason: p.reason, reference: e.reference, idempotencyKey: refundKey })),
    );
    const balance = await applyDelta(tx, userId, returned);
    return { returned, balance, replayed: false };
  });
}

/**
 * Returns part of a spend (`amount` credits, 1..spent) to the buckets it came from, in spending order
 * (one-time first: the credits that never expire go back first, decision 024), once: it writes under
 * the same key as a full refund (`refund:<spendKey>`), so a spend is refunded at most once, wholly or
 * in part, whichever comes first. Used for a partial result (image generation: the images not delivered).
 * @throws AppError NOT_FOUND when no spend with that key exists; VALIDATION_FAILED for a bad amount.
 */
export async function refundPart(db: DbOrTx, p: { spendKey: string; amount: number; reason: string }): Promise<RefundResult> {
  if (!Number.isInteger(p.amount) || p.amount <= 0) throw new AppError('VALIDATION_FAILED', { message: 'refund amount must be a positive integer' });
  return inTransaction(db, async (tx) => {
    const { spent, userId, refundKey, replay } = await openRefund(tx, p.spendKey);
    if (replay) return replay;
    const taken = zero();
    for (const e of spent) taken[FIELD[e.bucket]] = -e.delta;
    if (p.amount > sumOf(taken)) throw new AppError('VALIDATION_FAILED', { message: 'refund exceeds the spend' });
    const back = takeInOrder(taken, p.amount, SPENDING_ORDER);
    const reference = spent[0]!.reference;
    await tx.insert(creditLedger).values(rowsFor(back, 1, { userId, kind: 'refund', reason: p.reason, reference, idempotencyKey: refundKey }));
    const balance = await applyDelta(tx, userId, back);
    return { returned: back, balance, replayed: false };
  });
}

/** Sum of a user's ledger per bucket; equals the balances when the books are right (used by tests and audits). */
export async function ledgerSums(db: DbOrTx, userId: number): Promise<CreditBalance> {
  const rows = await db
    .select({ bucket: creditLedger.bucket, sum: sql<string>`coalesce(sum(${creditLedger.delta}), 0)` })
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId)))
    .groupBy(creditLedger.bucket);
  const sums = zero();
  for (const r of rows) sums[FIELD[r.bucket]] = Number(r.sum);
  return withTotal(sums);
}
