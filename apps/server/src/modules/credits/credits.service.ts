import { and, asc, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { ledgerReasonColumns, type ExpireReason, type GrantReason, type ReclaimReason, type RefundReason, type SpendReason } from '@dewy/contracts';
import type { DbOrTx } from '../../db/client';
import { creditLedger, subscriptionCreditPeriods, users } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { announceUserChanged } from '../../lib/user-changes';

/*
 * Every ledger row records why as a code with typed parameters (`reason_code` + `reason_params`, packages/contracts
 * ledger.ts, decision 036): each operation takes the reasons of its kind (GrantReason, SpendReason, RefundReason,
 * ExpireReason, ReclaimReason); the rows this module writes on its own are `debt_settlement` (a grant settling a
 * debt) and `ended_period` (credits that land in an ended subscription period expire at once).
 */

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
 * Adds signed amounts to the bucket balances (the CHECK constraints keep them ≥ 0). The change is
 * announced in this process at once (lib/user-changes: the session caches forget the user, whose answer
 * shows the balance; decisions 026, 039); other processes learn it from the users trigger at commit.
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
  announceUserChanged(userId);
  return withTotal(rows[0]!);
}

const negate = (b: BucketAmounts): BucketAmounts => ({ oneTime: -b.oneTime, bonus: -b.bonus, subscription: -b.subscription });

type LedgerInsert = typeof creditLedger.$inferInsert;

/**
 * Ledger rows for per-bucket amounts (zero buckets skipped); `sign` −1 writes them as debits. The
 * subscription amount is written as one row per credit period in `periods` (which must sum to it).
 */
function rowsFor(amounts: BucketAmounts, sign: 1 | -1, base: Omit<LedgerInsert, 'bucket' | 'delta'>, periods: PeriodShare[] = []): LedgerInsert[] {
  const out: LedgerInsert[] = [];
  for (const b of SPENDING_ORDER) {
    const n = amounts[FIELD[b]];
    if (n <= 0) continue;
    if (b !== 'subscription') out.push({ ...base, bucket: b, delta: sign * n });
    else for (const p of periods) if (p.amount > 0) out.push({ ...base, bucket: b, delta: sign * p.amount, periodId: p.periodId });
  }
  return out;
}

// ---------- subscription credit periods (decision 029) ----------

/** Which subscription period credits belong to: `<provider>:<subscription id>` and the period's start. */
export interface CreditPeriodRef {
  subscription: string;
  start: Date;
}

/** Part of a subscription amount attributed to one credit period (null: rows older than migration 0016). */
interface PeriodShare {
  periodId: number | null;
  amount: number;
}

type PeriodRow = typeof subscriptionCreditPeriods.$inferSelect;

/** The period row for `ref` (created, empty and open, when it is new), locked. */
async function periodFor(tx: DbOrTx, userId: number, ref: CreditPeriodRef): Promise<PeriodRow> {
  await tx.insert(subscriptionCreditPeriods).values({ userId, subscriptionRef: ref.subscription, periodStart: ref.start }).onConflictDoNothing();
  const row = (
    await tx
      .select()
      .from(subscriptionCreditPeriods)
      .where(and(eq(subscriptionCreditPeriods.subscriptionRef, ref.subscription), eq(subscriptionCreditPeriods.periodStart, ref.start)))
      .for('update')
  )[0];
  if (!row || row.userId !== userId) throw new AppError('VALIDATION_FAILED', { message: `credit period ${ref.subscription}@${ref.start.toISOString()} belongs to another user` });
  return row;
}

async function movePeriod(tx: DbOrTx, periodId: number, delta: number, grantedDelta = 0) {
  await tx
    .update(subscriptionCreditPeriods)
    .set({ remaining: sql`${subscriptionCreditPeriods.remaining} + ${delta}`, granted: sql`${subscriptionCreditPeriods.granted} + ${grantedDelta}` })
    .where(eq(subscriptionCreditPeriods.id, periodId));
}

/**
 * Takes `amount` subscription credits from the user's open periods: those of `prefer` (a subscription
 * ref) first, then the oldest period first. The caller holds the user's row lock and has checked that
 * the bucket covers `amount`; what the periods cannot cover (balances never attributed) is returned as
 * a share without a period, so the ledger still balances.
 */
async function takeFromPeriods(tx: DbOrTx, userId: number, amount: number, prefer?: string): Promise<PeriodShare[]> {
  if (amount <= 0) return [];
  const open = await tx
    .select()
    .from(subscriptionCreditPeriods)
    .where(and(eq(subscriptionCreditPeriods.userId, userId), isNull(subscriptionCreditPeriods.endedAt), sql`${subscriptionCreditPeriods.remaining} > 0`))
    .orderBy(
      prefer ? desc(sql`${subscriptionCreditPeriods.subscriptionRef} = ${prefer}`) : asc(subscriptionCreditPeriods.id),
      asc(subscriptionCreditPeriods.periodStart),
      asc(subscriptionCreditPeriods.id),
    )
    .for('update');
  const shares: PeriodShare[] = [];
  let left = amount;
  for (const p of open) {
    if (left <= 0) break;
    const n = Math.min(p.remaining, left);
    await movePeriod(tx, p.id, -n);
    shares.push({ periodId: p.id, amount: n });
    left -= n;
  }
  if (left > 0) shares.push({ periodId: null, amount: left });
  return shares;
}

/**
 * Credits going back into the subscription bucket (a refund) for the periods they were taken from.
 * A share whose period is still open goes back into it; a share whose period has ended (a renewal or
 * the subscription's end came in between) — or that names no period while the user has no open one —
 * is written back and expired at once (issue 21 point 5): `returned` says where credits went back,
 * `expired` what expires again under the caller's `:expire` key.
 */
async function returnToPeriods(tx: DbOrTx, userId: number, shares: PeriodShare[]): Promise<{ returned: PeriodShare[]; expired: PeriodShare[] }> {
  const returned: PeriodShare[] = [];
  const expired: PeriodShare[] = [];
  for (const sh of shares) {
    if (sh.amount <= 0) continue;
    let periodId = sh.periodId;
    if (periodId === null) {
      const newest = (
        await tx
          .select({ id: subscriptionCreditPeriods.id })
          .from(subscriptionCreditPeriods)
          .where(and(eq(subscriptionCreditPeriods.userId, userId), isNull(subscriptionCreditPeriods.endedAt)))
          .orderBy(desc(subscriptionCreditPeriods.periodStart), desc(subscriptionCreditPeriods.id))
          .limit(1)
      )[0];
      if (!newest) {
        returned.push(sh);
        expired.push(sh);
        continue;
      }
      periodId = newest.id;
    }
    const p = (await tx.select().from(subscriptionCreditPeriods).where(eq(subscriptionCreditPeriods.id, periodId)).for('update'))[0];
    returned.push({ periodId, amount: sh.amount });
    if (!p || p.endedAt) expired.push({ periodId, amount: sh.amount });
    else await movePeriod(tx, periodId, sh.amount);
  }
  return { returned, expired };
}

/** Shares of the subscription rows among `entries`, each with its period (spend rows: the amount taken). */
function sharesOf(entries: (typeof creditLedger.$inferSelect)[], sign: 1 | -1): PeriodShare[] {
  return entries.filter((e) => e.bucket === 'subscription').map((e) => ({ periodId: e.periodId, amount: sign * e.delta }));
}

/**
 * Writes the `expire` rows for credits that went back into ended periods (see returnToPeriods) under
 * `<key>:expire` and takes them off the balance again. @returns credits expired.
 */
async function expireReturned(tx: DbOrTx, userId: number, expired: PeriodShare[], base: { reason: RefundReason; reference: string | null; key: string }): Promise<number> {
  const total = expired.reduce((a, p) => a + p.amount, 0);
  if (total <= 0) return 0;
  const why = ledgerReasonColumns({ code: 'ended_period', of: base.reason });
  await tx.insert(creditLedger).values(
    expired.map((p) => ({ userId, bucket: 'subscription' as const, delta: -p.amount, kind: 'expire' as const, ...why, reference: base.reference, idempotencyKey: `${base.key}:expire`, periodId: p.periodId })),
  );
  await applyDelta(tx, userId, { subscription: -total });
  return total;
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
 * Used for the welcome grant, purchases and subscription periods. A subscription grant names its
 * credit period (`period`, decision 029; VALIDATION_FAILED without one): the credits belong to that
 * period, and a grant into a period that has already ended expires at once (both rows in the ledger).
 * When the user owes credits (a refund that could not take back what was already spent, decision 012),
 * the grant settles that debt first: a `reclaim` row under `<key>:settle` takes min(debt, amount) back
 * in the same transaction.
 * @returns the balance after the grant and the debt it settled.
 */
export async function grant(
  db: DbOrTx,
  p: { userId: number; amount: number; bucket: CreditBucket; reason: GrantReason; reference?: string; idempotencyKey: string; period?: CreditPeriodRef },
): Promise<{ balance: CreditBalance; replayed: boolean; settledDebt: number }> {
  if (!Number.isInteger(p.amount) || p.amount <= 0) throw new AppError('VALIDATION_FAILED', { message: 'grant amount must be a positive integer' });
  if (p.bucket === 'subscription' && !p.period) throw new AppError('VALIDATION_FAILED', { message: 'a subscription grant names its credit period' });
  return inTransaction(db, async (tx) => {
    const before = await lockBalance(tx, p.userId);
    if ((await entriesFor(tx, p.idempotencyKey)).length > 0) return { balance: withTotal(before), replayed: true, settledDebt: 0 };
    const period = p.bucket === 'subscription' && p.period ? await periodFor(tx, p.userId, p.period) : null;
    const base = { userId: p.userId, bucket: p.bucket, ...ledgerReasonColumns(p.reason), reference: p.reference ?? null, periodId: period?.id ?? null };
    await tx.insert(creditLedger).values({ ...base, delta: p.amount, kind: 'grant', idempotencyKey: p.idempotencyKey });
    const settle = Math.min(before.debt, p.amount);
    if (settle > 0) {
      await tx.insert(creditLedger).values({ ...base, ...ledgerReasonColumns({ code: 'debt_settlement' }), delta: -settle, kind: 'reclaim', idempotencyKey: `${p.idempotencyKey}:settle` });
      await tx.update(users).set({ creditDebt: sql`${users.creditDebt} - ${settle}` }).where(eq(users.id, p.userId));
      announceUserChanged(p.userId);
    }
    const net = p.amount - settle;
    if (period) {
      await movePeriod(tx, period.id, period.endedAt ? 0 : net, p.amount);
      if (period.endedAt && net > 0) {
        await tx.insert(creditLedger).values({ ...base, ...ledgerReasonColumns({ code: 'ended_period', of: p.reason }), delta: -net, kind: 'expire', idempotencyKey: `${p.idempotencyKey}:expire` });
        return { balance: withTotal(before), replayed: false, settledDebt: settle };
      }
    }
    const balance = net > 0 ? await applyDelta(tx, p.userId, { [FIELD[p.bucket]]: net }) : withTotal(before);
    return { balance, replayed: false, settledDebt: settle };
  });
}

/**
 * Ends the open credit periods of one subscription (spec 000 §5: subscription credits expire at a new
 * period and at the subscription's end) — all of them, or with `before` only those that started
 * before it (a renewal keeps the new period). Each period's remainder is written as an `expire` row
 * (under `idempotencyKey`, one row per period) and taken off the balance; the periods are marked
 * ended. Another subscription's periods are never touched (decision 029). A period already ended is
 * skipped, so a replay changes nothing. @returns credits expired.
 */
export async function expireSubscriptionPeriods(
  db: DbOrTx,
  p: { userId: number; subscription: string; before?: Date; reason: ExpireReason; reference?: string; idempotencyKey: string },
): Promise<{ expired: number; balance: CreditBalance }> {
  return inTransaction(db, async (tx) => {
    const before = await lockBalance(tx, p.userId);
    const conds = [eq(subscriptionCreditPeriods.userId, p.userId), eq(subscriptionCreditPeriods.subscriptionRef, p.subscription), isNull(subscriptionCreditPeriods.endedAt)];
    if (p.before) conds.push(lt(subscriptionCreditPeriods.periodStart, p.before));
    const open = await tx.select().from(subscriptionCreditPeriods).where(and(...conds)).for('update');
    if (open.length === 0) return { expired: 0, balance: withTotal(before) };
    const done = new Set((await entriesFor(tx, p.idempotencyKey)).map((e) => e.periodId));
    const rows = open.filter((o) => o.remaining > 0 && !done.has(o.id));
    const expired = rows.reduce((a, o) => a + o.remaining, 0);
    if (rows.length) {
      await tx.insert(creditLedger).values(
        rows.map((o) => ({ userId: p.userId, bucket: 'subscription' as const, delta: -o.remaining, kind: 'expire' as const, ...ledgerReasonColumns(p.reason), reference: p.reference ?? null, idempotencyKey: p.idempotencyKey, periodId: o.id })),
      );
    }
    await tx.update(subscriptionCreditPeriods).set({ remaining: 0, endedAt: new Date() }).where(inArray(subscriptionCreditPeriods.id, open.map((o) => o.id)));
    const balance = expired > 0 ? await applyDelta(tx, p.userId, { subscription: -expired }) : withTotal(before);
    return { expired, balance };
  });
}

/**
 * Takes back `amount` credits a refunded payment granted (decision 012): from `bucket` first, then the
 * others in spending order, never below zero; what cannot be taken (already spent) is added to the user's credit
 * debt, which later grants settle. Subscription credits come from `subscription`'s open periods first
 * (the refunded invoice's subscription), then the oldest. Once per key.
 * @returns what each bucket gave and the debt added.
 */
export async function reclaim(
  db: DbOrTx,
  p: { userId: number; amount: number; bucket: CreditBucket; reason: ReclaimReason; reference?: string; idempotencyKey: string; subscription?: string },
): Promise<{ taken: BucketAmounts; debtAdded: number; replayed: boolean }> {
  if (!Number.isInteger(p.amount) || p.amount <= 0) throw new AppError('VALIDATION_FAILED', { message: 'reclaim amount must be a positive integer' });
  return inTransaction(db, async (tx) => {
    const before = await lockBalance(tx, p.userId);
    if ((await entriesFor(tx, p.idempotencyKey)).length > 0) return { taken: zero(), debtAdded: 0, replayed: true };
    const order = [p.bucket, ...SPENDING_ORDER.filter((b) => b !== p.bucket)];
    const taken = takeInOrder(before, p.amount, order);
    const debt = p.amount - sumOf(taken);
    const periods = await takeFromPeriods(tx, p.userId, taken.subscription, p.subscription);
    const rows = rowsFor(taken, -1, { userId: p.userId, kind: 'reclaim', ...ledgerReasonColumns(p.reason), reference: p.reference ?? null, idempotencyKey: p.idempotencyKey }, periods);
    if (rows.length) await tx.insert(creditLedger).values(rows);
    await applyDelta(tx, p.userId, negate(taken));
    if (debt > 0) {
      await tx.update(users).set({ creditDebt: sql`${users.creditDebt} + ${debt}` }).where(eq(users.id, p.userId));
      announceUserChanged(p.userId);
    }
    return { taken, debtAdded: debt, replayed: false };
  });
}

/**
 * Takes `amount` credits (> 0) in spending order — one-time, bonus, then subscription (spec 000 §5
 * puts one-time before subscription; decision 013 places bonus between) — all or
 * nothing. Subscription credits come from the open credit periods, oldest first, one ledger row per
 * period (decision 029), so a refund knows where they came from. The user row is locked
 * (`SELECT … FOR UPDATE`) so concurrent spends serialise; the CHECK constraints on the balances are
 * the last line of defence. A replayed idempotency key returns the first result and changes nothing.
 * @throws AppError INSUFFICIENT_CREDITS when the balance does not cover `amount`; NOT_FOUND for an unknown user.
 */
export async function spend(
  db: DbOrTx,
  p: { userId: number; amount: number; reason: SpendReason; reference?: string; idempotencyKey: string },
): Promise<SpendResult> {
  if (!Number.isInteger(p.amount) || p.amount <= 0) throw new AppError('VALIDATION_FAILED', { message: 'spend amount must be a positive integer' });
  return inTransaction(db, async (tx) => {
    const before = await lockBalance(tx, p.userId);
    const previous = await entriesFor(tx, p.idempotencyKey);
    if (previous.length > 0) {
      const taken = zero();
      for (const e of previous) {
        if (e.userId !== p.userId || e.kind !== 'spend') throw new AppError('VALIDATION_FAILED', { message: 'idempotency key reused for another operation' });
        taken[FIELD[e.bucket]] += -e.delta;
      }
      return { taken, balance: withTotal(before), replayed: true };
    }
    if (before.total < p.amount) throw new AppError('INSUFFICIENT_CREDITS');
    const taken = takeInOrder(before, p.amount, SPENDING_ORDER);
    const periods = await takeFromPeriods(tx, p.userId, taken.subscription);
    await tx.insert(creditLedger).values(rowsFor(taken, -1, { userId: p.userId, kind: 'spend', ...ledgerReasonColumns(p.reason), reference: p.reference ?? null, idempotencyKey: p.idempotencyKey }, periods));
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
    for (const e of existing) returned[FIELD[e.bucket]] += e.delta;
    replay = { returned, balance: withTotal(before), replayed: true };
  }
  return { spent, userId, refundKey, replay };
}

/**
 * Writes a refund of `back` (per bucket) whose subscription part goes to `shares` (the spend's
 * periods): refund rows under `refund:<spendKey>`, then — for the part whose period has ended since —
 * the `expire` rows under `refund:<spendKey>:expire` (issue 21 point 5). `returned` reports what was
 * refunded, including the part that expired again at once.
 */
async function writeRefund(tx: DbOrTx, userId: number, back: BucketAmounts, shares: PeriodShare[], r: { reason: RefundReason; reference: string | null; refundKey: string }): Promise<RefundResult> {
  const { returned: periods, expired } = await returnToPeriods(tx, userId, shares);
  await tx.insert(creditLedger).values(rowsFor(back, 1, { userId, kind: 'refund', ...ledgerReasonColumns(r.reason), reference: r.reference, idempotencyKey: r.refundKey }, periods));
  let balance = await applyDelta(tx, userId, back);
  if (await expireReturned(tx, userId, expired, { reason: r.reason, reference: r.reference, key: r.refundKey })) balance = await getBalance(tx, userId);
  return { returned: back, balance, replayed: false };
}

/**
 * Returns the credits of a spend to the buckets they came from, once: the refund rows carry the key
 * `refund:<spendKey>`, so a second refund is a no-op (`replayed: true`). Subscription credits go back
 * to the credit periods they were taken from; the part whose period has ended since (a renewal, the
 * subscription's end) expires again at once, and the ledger shows both rows (decision 029).
 * @throws AppError NOT_FOUND when no spend with that key exists.
 */
export async function refund(db: DbOrTx, p: { spendKey: string; reason: RefundReason }): Promise<RefundResult> {
  return inTransaction(db, async (tx) => {
    const { spent, userId, refundKey, replay } = await openRefund(tx, p.spendKey);
    if (replay) return replay;
    const back = zero();
    for (const e of spent) back[FIELD[e.bucket]] += -e.delta;
    return writeRefund(tx, userId, back, sharesOf(spent, -1), { reason: p.reason, reference: spent[0]!.reference, refundKey });
  });
}

/**
 * Returns part of a spend (`amount` credits, 1..spent) to the buckets it came from, in spending order
 * (one-time first: the credits that never expire go back first, decision 024), once: it writes under
 * the same key as a full refund (`refund:<spendKey>`), so a spend is refunded at most once, wholly or
 * in part, whichever comes first. Used for a partial result (image generation: the images not delivered).
 * The subscription part goes back to the spend's credit periods, still-open periods first; what falls
 * into an ended period expires again at once (decision 029).
 * @throws AppError NOT_FOUND when no spend with that key exists; VALIDATION_FAILED for a bad amount.
 */
export async function refundPart(db: DbOrTx, p: { spendKey: string; amount: number; reason: RefundReason }): Promise<RefundResult> {
  if (!Number.isInteger(p.amount) || p.amount <= 0) throw new AppError('VALIDATION_FAILED', { message: 'refund amount must be a positive integer' });
  return inTransaction(db, async (tx) => {
    const { spent, userId, refundKey, replay } = await openRefund(tx, p.spendKey);
    if (replay) return replay;
    const taken = zero();
    for (const e of spent) taken[FIELD[e.bucket]] += -e.delta;
    if (p.amount > sumOf(taken)) throw new AppError('VALIDATION_FAILED', { message: 'refund exceeds the spend' });
    const back = takeInOrder(taken, p.amount, SPENDING_ORDER);
    const shares = await openPeriodsFirst(tx, sharesOf(spent, -1));
    const part: PeriodShare[] = [];
    let left = back.subscription;
    for (const sh of shares) {
      const n = Math.min(sh.amount, left);
      if (n > 0) part.push({ periodId: sh.periodId, amount: n });
      left -= n;
    }
    return writeRefund(tx, userId, back, part, { reason: p.reason, reference: spent[0]!.reference, refundKey });
  });
}

/** The shares whose period is still open first (a partial refund gives back credits that stay usable first). */
async function openPeriodsFirst(tx: DbOrTx, shares: PeriodShare[]): Promise<PeriodShare[]> {
  const ids = shares.map((s) => s.periodId).filter((x): x is number => x !== null);
  const ended = new Set(
    ids.length
      ? (await tx.select({ id: subscriptionCreditPeriods.id, endedAt: subscriptionCreditPeriods.endedAt }).from(subscriptionCreditPeriods).where(inArray(subscriptionCreditPeriods.id, ids)))
          .filter((r) => r.endedAt)
          .map((r) => r.id)
      : [],
  );
  const isEnded = (s: PeriodShare) => (s.periodId !== null && ended.has(s.periodId) ? 1 : 0);
  return [...shares].sort((a, b) => isEnded(a) - isEnded(b));
}

/**
 * The subscription credit periods of a user (open and ended), oldest first — for audits and tests:
 * the open periods' `remaining` sums to the subscription balance.
 */
export async function creditPeriods(db: DbOrTx, userId: number): Promise<PeriodRow[]> {
  return db.select().from(subscriptionCreditPeriods).where(eq(subscriptionCreditPeriods.userId, userId)).orderBy(asc(subscriptionCreditPeriods.periodStart), asc(subscriptionCreditPeriods.id));
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
