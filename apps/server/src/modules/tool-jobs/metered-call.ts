import { createHash, randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ERROR_CODES, type ErrorCode, type MeteredOperationName } from '@dewy/contracts';
import type { AppContext } from '../../context';
import type { DbOrTx, Tx } from '../../db/client';
import { meteredCalls, users, type MeteredCallRow } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { getBalance, refund, spend } from '../credits';
import { assertNotInMaintenance } from '../settings';
import { requestFingerprint } from './tool-jobs.service';

/**
 * The kernel's second mode (decision 036): an inline metered call. A model call (chat, rewrite, auto
 * prompt, prompt extraction) is not a queued job — it runs inside the request and the page waits for
 * it — but its money follows the queued tools' rules: the cost is computed on the server from the
 * input; the charge (credits.service `spend`) and the call's record (`metered_calls`, status `pending`)
 * are ONE transaction; the result is stored in the transaction that flips the record to `completed`;
 * a failure flips it to `refunded` and refunds in one transaction; both flips are conditional on
 * `pending`, so each call ends charged or refunded exactly once. A process that dies mid-call leaves a
 * `pending` record that housekeeping refunds (`refundStaleMeteredCalls`). An Idempotency-Key is
 * honoured as the queued tools honour it (`createToolJob`).
 */

/**
 * A metered operation: what the kernel needs to price and record one kind of inline call. The code that
 * runs it (the vendor call and the rows it writes) is given per call to {@link runMeteredCall}.
 * @typeParam S the zod schema of the operation's input (fingerprinted for the Idempotency-Key, priced)
 */
export interface MeteredOperation<S extends z.ZodType = z.ZodType> {
  /** Operation name: `metered_calls.operation`, the ledger reason `{ code: 'ai_call', operation }`, idempotency scope. */
  name: MeteredOperationName;
  /** The input as the service validated it. */
  input: S;
  /** Server-side cost in credits (integer ≥ 0) from the input — never from anything the page computed. */
  cost(input: z.infer<S>, app: AppContext): number;
  /** The error code a failed run answers with (and records on the refunded call). */
  failureCode(err: unknown): ErrorCode;
  /**
   * Calls whose result the page must confirm that it applied (the rewrite, decision 022): a completed call
   * still unconfirmed `windowMs` after it finished is refunded by housekeeping
   * ({@link refundUnconfirmedMeteredCalls}); {@link confirmMeteredCall} confirms one.
   */
  confirmation?: { windowMs: number };
}

/** Identity helper that keeps an operation's input type inferred. */
export function defineMeteredOperation<S extends z.ZodType>(op: MeteredOperation<S>): MeteredOperation<S> {
  return op;
}

/** Who makes the call: today a signed-in user (later an API key acting for one). */
export interface MeteredCaller {
  userId: number;
}

/** What the steps of one call see once it is charged. */
export interface MeteredCallContext<I, P, St> {
  /** The call's id (`metered_calls.id`; the rewrite's `rewriteId`). */
  id: string;
  userId: number;
  input: I;
  /** What `prepare` returned. */
  prepared: P;
  /** What `open` returned (rows written with the charge). */
  state: St;
  /** Credits charged (0 for a free call). */
  cost: number;
  /** The caller's total balance right after the charge. */
  credits: number;
}

/**
 * The per-call code of an inline call, in the order the kernel runs it.
 * @typeParam P what `prepare` hands on; St what `open` hands on; T the vendor's result; A the answer
 */
export interface MeteredCallSteps<I, P, St extends { threadId?: string | null }, T, A> {
  /**
   * Checks and work before anything is charged (validation, banned words, ownership, an upload stored):
   * runs after the replay check and the maintenance check; throwing charges nothing.
   */
  prepare?(): Promise<P>;
  /**
   * Rows recorded with the charge, in the charging transaction (a thread, the user's message): a refused
   * charge leaves none of them. `threadId` in the result is kept on the call's record.
   */
  open?(tx: Tx, call: { userId: number; input: I; prepared: P }): Promise<St>;
  /** After the charge committed: the vendor call. A rejection refunds the call once and is rethrown. */
  run(call: MeteredCallContext<I, P, St>): Promise<T>;
  /**
   * In the transaction that completes the call: stores the result and builds the answer (JSON; kept on the
   * record when the call carries an Idempotency-Key, and answered again to a replay of that key).
   */
  finish(tx: Tx, call: MeteredCallContext<I, P, St>, result: T): Promise<A>;
}

/** What {@link runMeteredCall} answers. */
export interface MeteredCallResult<A> {
  answer: A;
  callId: string;
  /** Credits charged by the first call (a replay charges nothing again). */
  cost: number;
  /** True when an Idempotency-Key replay answered a stored answer; nothing ran or was charged. */
  replayed: boolean;
}

const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

/** The stored form of a caller's Idempotency-Key (hashed; the record is scoped to user and operation). */
function storedKey(idempotencyKey: string): string {
  return sha256Hex(idempotencyKey).slice(0, 32);
}

/** The ledger key of a call's spend (calls recorded before migration 0021 keep theirs: `ai:<id>`). */
export const meteredSpendKey = (callId: string) => `metered:${callId}`;

/**
 * The answer to a replayed key: the stored answer of a call that completed (or completed and was refunded
 * later, an unapplied rewrite); the stored error of a call that failed (its charge was refunded);
 * REQUEST_IN_PROGRESS while the first request still runs.
 */
function replayOf<A>(row: MeteredCallRow, requestHash: string): MeteredCallResult<A> {
  if (row.requestHash !== null && row.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  if (row.result !== null) return { answer: row.result as A, callId: row.id, cost: row.cost, replayed: true };
  if (row.status === 'pending') throw new AppError('REQUEST_IN_PROGRESS');
  const code = row.errorCode && (ERROR_CODES as readonly string[]).includes(row.errorCode) ? (row.errorCode as ErrorCode) : 'INTERNAL';
  throw new AppError(code, { message: 'replay of a call that failed and was refunded' });
}

async function findByKey(db: DbOrTx, op: MeteredOperation, userId: number, key: string): Promise<MeteredCallRow | undefined> {
  return (await db.select().from(meteredCalls).where(and(eq(meteredCalls.userId, userId), eq(meteredCalls.operation, op.name), eq(meteredCalls.idempotencyKey, storedKey(key)))))[0];
}

/**
 * Locks the caller's user row (`FOR UPDATE`) first thing in the charging transaction and checks that the
 * account is alive. Rows inserted before the spend reference the user (a foreign key takes KEY SHARE on
 * the row); two such transactions would then both wait to upgrade to the spend's FOR UPDATE — a deadlock.
 * Taking the strong lock first serialises them (decision 022).
 * @throws AppError UNAUTHENTICATED for an account that is gone or deleted
 */
async function lockCaller(tx: DbOrTx, caller: MeteredCaller): Promise<void> {
  const row = (await tx.select({ id: users.id, deletedAt: users.deletedAt }).from(users).where(eq(users.id, caller.userId)).for('update'))[0];
  if (!row || row.deletedAt) throw new AppError('UNAUTHENTICATED', { message: 'caller account gone' });
}

/**
 * Locks the user row of a call (`FOR UPDATE`) before the call's own row is touched. Every transaction that
 * ends a call — its completion (whose `finish` inserts rows referencing the user: KEY SHARE on the user row),
 * its refund and the housekeeping sweeps (whose ledger refund locks the user row) — takes the user row
 * first, so none of them can hold the call row while waiting for the user row that another holds while
 * waiting for the call row (a deadlock PostgreSQL found under parallel failures racing stale sweeps).
 */
async function lockOwnerOfCall(tx: DbOrTx, callId: string): Promise<void> {
  const owner = (await tx.select({ userId: meteredCalls.userId }).from(meteredCalls).where(eq(meteredCalls.id, callId)))[0];
  if (owner) await tx.select({ id: users.id }).from(users).where(eq(users.id, owner.userId)).for('update');
}

/**
 * The answer stored under a caller's Idempotency-Key for this operation, when the key was used before
 * (see {@link runMeteredCall}); null without a key or for a new key. Services call it before any work a
 * retry must not repeat; `runMeteredCall` checks again under the caller's lock.
 * @param requestHash the request's fingerprint (`requestFingerprint` of what was sent)
 * @throws AppError IDEMPOTENCY_KEY_REUSED (another request under the key), REQUEST_IN_PROGRESS (the first
 *   request still runs), or the first request's error code when it failed and was refunded
 */
export async function replayMeteredCall<A>(ctx: AppContext, op: MeteredOperation, caller: MeteredCaller, idempotencyKey: string | undefined, requestHash: string): Promise<MeteredCallResult<A> | null> {
  if (!idempotencyKey) return null;
  const row = await findByKey(ctx.database.db, op, caller.userId, idempotencyKey);
  return row ? replayOf<A>(row, requestHash) : null;
}

/**
 * Runs one inline metered call (decision 036). In order: `input` is parsed with `op.input`
 * (VALIDATION_FAILED); an Idempotency-Key already used answers its first call (nothing runs, nothing is
 * charged; another body → 422 IDEMPOTENCY_KEY_REUSED); maintenance (MAINTENANCE); `steps.prepare`; the
 * cost from `op.cost` (server-side). Then ONE transaction locks and
 * checks the caller, writes `steps.open`'s rows, records the call (`pending`, the key and the request's
 * fingerprint) and debits the cost (ledger reason `ai_call`, key `metered:<id>`) — INSUFFICIENT_CREDITS
 * rolls all of it back. `steps.run` calls the vendor; its failure refunds once ({@link refundMeteredCall},
 * reason `ai_call_refund` with `op.failureCode`) and is rethrown as an AppError. Its result is stored by
 * `steps.finish` in the transaction that flips the call to `completed` (with the answer when keyed).
 *
 * Idempotency-Key (optional; kept as long as the call's record): scoped to the caller and the operation.
 * The same key with the same request answers the first call's stored answer; while that call still runs,
 * 409 REQUEST_IN_PROGRESS; after it failed (and was refunded), its error again. (Two requests with one
 * key that pass the first check together both run `prepare`; the second then answers from the first's
 * record, and what its `prepare` stored — a chat image — is left to the uploads' retention.)
 *
 * @param opts.requestHash the request's fingerprint, when what was sent differs from `input` (a file:
 *   its bytes' hash); default `requestFingerprint(input)`
 * @throws AppError VALIDATION_FAILED, UNAUTHENTICATED, MAINTENANCE, INSUFFICIENT_CREDITS, IDEMPOTENCY_KEY_REUSED,
 *   REQUEST_IN_PROGRESS, what `steps` throw, and `op.failureCode` of a failed run
 */
export async function runMeteredCall<S extends z.ZodType, P, St extends { threadId?: string | null }, T, A>(
  ctx: AppContext,
  op: MeteredOperation<S>,
  caller: MeteredCaller,
  input: z.infer<S>,
  opts: { idempotencyKey?: string; requestHash?: string },
  steps: MeteredCallSteps<z.infer<S>, P, St, T, A>,
): Promise<MeteredCallResult<A>> {
  const db = ctx.database.db;
  const checked = op.input.safeParse(input);
  if (!checked.success) throw new AppError('VALIDATION_FAILED', { details: checked.error.issues });
  input = checked.data as z.infer<S>;
  const requestHash = opts.requestHash ?? requestFingerprint(input);
  const replay = await replayMeteredCall<A>(ctx, op, caller, opts.idempotencyKey, requestHash);
  if (replay) return replay;
  await assertNotInMaintenance(ctx);
  const prepared = (steps.prepare ? await steps.prepare() : undefined) as P;
  const cost = op.cost(input, ctx);
  if (!Number.isInteger(cost) || cost < 0) throw new AppError('INTERNAL', { message: `metered operation ${op.name} priced ${cost}` });

  type Opened = { replay: MeteredCallRow } | { call: MeteredCallContext<z.infer<S>, P, St> };
  const opened = await inTransaction(db, async (tx): Promise<Opened> => {
    await lockCaller(tx, caller);
    if (opts.idempotencyKey) {
      // Serialised by the caller's lock: a parallel request with the same key committed first.
      const prior = await findByKey(tx, op, caller.userId, opts.idempotencyKey);
      if (prior) return { replay: prior };
    }
    const state = (steps.open ? await steps.open(tx, { userId: caller.userId, input, prepared }) : {}) as St;
    const id = randomUUID();
    const spendKey = meteredSpendKey(id);
    await tx.insert(meteredCalls).values({
      id,
      userId: caller.userId,
      operation: op.name,
      cost,
      threadId: state.threadId ?? null,
      spendKey,
      idempotencyKey: opts.idempotencyKey ? storedKey(opts.idempotencyKey) : null,
      requestHash,
    });
    const credits = cost > 0 ? (await spend(tx, { userId: caller.userId, amount: cost, reason: { code: 'ai_call', operation: op.name }, reference: id, idempotencyKey: spendKey })).balance.total : (await getBalance(tx, caller.userId)).total;
    return { call: { id, userId: caller.userId, input, prepared, state, cost, credits } };
  });
  if ('replay' in opened) return replayOf<A>(opened.replay, requestHash);
  const call = opened.call;

  let result: T;
  try {
    result = await steps.run(call);
  } catch (err) {
    const code = op.failureCode(err);
    await refundMeteredCall(db, call.id, code);
    ctx.log.warn({ err, userId: call.userId, callId: call.id, operation: op.name, code }, 'metered call failed; refunded');
    throw err instanceof AppError ? err : new AppError(code, { message: `${op.name} failed`, cause: err });
  }

  const answer = await inTransaction(db, async (tx) => {
    await lockOwnerOfCall(tx, call.id);
    const a = await steps.finish(tx, call, result);
    const done = await tx
      .update(meteredCalls)
      .set({ status: 'completed', finishedAt: new Date(), result: opts.idempotencyKey ? (a as unknown) : null })
      .where(and(eq(meteredCalls.id, call.id), eq(meteredCalls.status, 'pending')))
      .returning({ id: meteredCalls.id });
    // Refunded meanwhile as stale (a call that outlived the sweep's age): the customer keeps the result and the refund.
    if (!done.length) ctx.log.warn({ callId: call.id, operation: op.name }, 'metered call completed after housekeeping refunded it');
    return a;
  });
  return { answer, callId: call.id, cost, replayed: false };
}

/**
 * Refunds a pending call once: flips it `pending` → `refunded` (with `code`) and returns its spend, in one
 * transaction. A call already completed or refunded is left as it is.
 * @returns whether this call refunded it
 */
export async function refundMeteredCall(db: DbOrTx, callId: string, code: ErrorCode): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    await lockOwnerOfCall(tx, callId);
    const rows = await tx
      .update(meteredCalls)
      .set({ status: 'refunded', errorCode: code, finishedAt: new Date() })
      .where(and(eq(meteredCalls.id, callId), eq(meteredCalls.status, 'pending')))
      .returning({ cost: meteredCalls.cost, spendKey: meteredCalls.spendKey, operation: meteredCalls.operation });
    const row = rows[0];
    if (!row) return false;
    if (row.cost > 0) await refund(tx, { spendKey: row.spendKey, reason: { code: 'ai_call_refund', operation: row.operation, error: code } });
    return true;
  });
}

/**
 * Housekeeping: calls still pending after `maxAgeMs` (their process died mid-call) are refunded once
 * (error AI_TIMEOUT), each by {@link refundMeteredCall}'s conditional flip — parallel sweeps refund once.
 * @param opts.limit calls per sweep (default 500)
 * @returns the ids this sweep refunded
 */
export async function refundStaleMeteredCalls(ctx: Pick<AppContext, 'database'>, maxAgeMs: number, opts: { limit?: number } = {}): Promise<string[]> {
  const stale = await ctx.database.db
    .select({ id: meteredCalls.id })
    .from(meteredCalls)
    .where(and(eq(meteredCalls.status, 'pending'), lt(meteredCalls.createdAt, sql`now() - make_interval(secs => ${maxAgeMs / 1000})`)))
    .limit(opts.limit ?? 500);
  const done: string[] = [];
  for (const r of stale) if (await refundMeteredCall(ctx.database.db, r.id, 'AI_TIMEOUT')) done.push(r.id);
  return done;
}

/**
 * Confirms a completed call of a confirmable operation (the page applied its result): sets `confirmed_at`
 * only while the call is still `completed` and unconfirmed, so a confirmation and the unconfirmed-call
 * refund ({@link refundUnconfirmedMeteredCalls}) exclude each other.
 * @returns true when the call is confirmed (now or before), false when it was refunded first
 */
export async function confirmMeteredCall(db: DbOrTx, callId: string): Promise<boolean> {
  const confirmed = await db
    .update(meteredCalls)
    .set({ confirmedAt: new Date() })
    .where(and(eq(meteredCalls.id, callId), eq(meteredCalls.status, 'completed'), isNull(meteredCalls.confirmedAt)))
    .returning({ id: meteredCalls.id });
  if (confirmed.length) return true;
  const now = (await db.select({ confirmedAt: meteredCalls.confirmedAt, status: meteredCalls.status }).from(meteredCalls).where(eq(meteredCalls.id, callId)))[0];
  return Boolean(now?.confirmedAt) && now?.status === 'completed';
}

/**
 * Housekeeping for a confirmable operation (`op.confirmation`; decision 022, issue 21 point 15): a call
 * completed and still unconfirmed `windowMs` after it finished was never applied by the page, so its charge
 * is returned — the call flips `completed` → `refunded` (error NOTHING_TO_CHARGE) only while `confirmed_at`
 * is null, in the transaction that refunds its spend (itself once per key). A parallel sweep or a late
 * confirmation sees the other's state: refunded exactly once, or confirmed and charged, never both.
 * @param opts.now the clock (tests); opts.windowMs default `op.confirmation.windowMs`; opts.limit calls per sweep
 * @returns the ids this sweep refunded
 */
export async function refundUnconfirmedMeteredCalls(
  ctx: Pick<AppContext, 'database'>,
  op: MeteredOperation,
  opts: { now?: Date; windowMs?: number; limit?: number } = {},
): Promise<string[]> {
  const windowMs = opts.windowMs ?? op.confirmation?.windowMs;
  if (windowMs === undefined) return [];
  const cutoff = new Date((opts.now ?? new Date()).getTime() - windowMs);
  const db = ctx.database.db;
  const unconfirmed = and(eq(meteredCalls.operation, op.name), eq(meteredCalls.status, 'completed'), isNull(meteredCalls.confirmedAt));
  const due = await db
    .select({ id: meteredCalls.id })
    .from(meteredCalls)
    .where(and(unconfirmed, lt(meteredCalls.finishedAt, cutoff)))
    .limit(opts.limit ?? 500);
  const done: string[] = [];
  for (const r of due) {
    const refunded = await inTransaction(db, async (tx) => {
      await lockOwnerOfCall(tx, r.id);
      const rows = await tx
        .update(meteredCalls)
        .set({ status: 'refunded', errorCode: 'NOTHING_TO_CHARGE' })
        .where(and(eq(meteredCalls.id, r.id), unconfirmed))
        .returning({ cost: meteredCalls.cost, spendKey: meteredCalls.spendKey });
      const row = rows[0];
      if (!row) return false;
      if (row.cost > 0) await refund(tx, { spendKey: row.spendKey, reason: { code: 'ai_call_refund', operation: op.name, error: 'NOTHING_TO_CHARGE' } });
      return true;
    });
    if (refunded) done.push(r.id);
  }
  return done;
}
