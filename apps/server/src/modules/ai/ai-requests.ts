import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { AI_LIMITS, type ErrorCode } from '@dewy/contracts';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { aiRequests, users } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { LlmError, type LlmProvider } from '../../providers/llm';
import { bannedKeywords } from '../settings/settings.service';
import { getBalance, refund, spend } from '../credits/credits.service';

/**
 * The money side of the AI text tools (decision 022). A model call is not a queued job: it runs inside the
 * request. Its charge follows the kernel's rule all the same — debit and the record of what was asked in
 * ONE transaction (`beginAiRequest`), then either the result with `completeAiRequest`, or the refund with
 * `refundAiRequest`, each conditional on the row still being `pending` so that it happens once. A process
 * that dies in between leaves a `pending` row that `refundStaleAiRequests` (housekeeping) refunds.
 */

export type AiRequestKind = 'chat' | 'rewrite' | 'auto_prompt' | 'extract_prompt';

/** The ledger key of a request's spend. */
export const aiSpendKey = (requestId: string) => `ai:${requestId}`;

/**
 * Records a request and takes its cost (credits, ≥ 0) in the caller's transaction.
 * @returns the request id (also the `rewriteId` of a rewrite). @throws AppError INSUFFICIENT_CREDITS
 */
export async function beginAiRequest(tx: DbOrTx, p: { userId: number; kind: AiRequestKind; cost: number; threadId?: string | null }): Promise<string> {
  await lockUser(tx, p.userId);
  const [row] = await tx.insert(aiRequests).values({ userId: p.userId, kind: p.kind, cost: p.cost, threadId: p.threadId ?? null }).returning({ id: aiRequests.id });
  const id = row!.id;
  if (p.cost > 0) await spend(tx, { userId: p.userId, amount: p.cost, reason: `ai ${p.kind}`, reference: id, idempotencyKey: aiSpendKey(id) });
  return id;
}

/**
 * Locks the user's row (`FOR UPDATE`) first thing in a charging transaction. Rows inserted before the spend
 * reference the user (a foreign key takes KEY SHARE on the row); two such transactions would then both
 * wait to upgrade to the spend's FOR UPDATE — a deadlock. Taking the strong lock first serialises them.
 */
export async function lockUser(tx: DbOrTx, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/** Marks a request completed (in the caller's transaction, with its result). @returns false when it was no longer pending. */
export async function completeAiRequest(tx: DbOrTx, requestId: string): Promise<boolean> {
  const done = await tx
    .update(aiRequests)
    .set({ status: 'completed', finishedAt: new Date() })
    .where(and(eq(aiRequests.id, requestId), eq(aiRequests.status, 'pending')))
    .returning({ id: aiRequests.id });
  return done.length > 0;
}

/** Refunds a pending request once, in one transaction with its status change. @returns whether this call refunded it. */
export async function refundAiRequest(db: DbOrTx, requestId: string, code: ErrorCode): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const rows = await tx
      .update(aiRequests)
      .set({ status: 'refunded', errorCode: code, finishedAt: new Date() })
      .where(and(eq(aiRequests.id, requestId), eq(aiRequests.status, 'pending')))
      .returning({ cost: aiRequests.cost });
    if (!rows.length) return false;
    if (rows[0]!.cost > 0) await refund(tx, { spendKey: aiSpendKey(requestId), reason: `ai failed: ${code}` });
    return true;
  });
}

/**
 * Housekeeping: requests still pending after `maxAgeMs` (their process died mid-call) are refunded once.
 * @returns the ids refunded.
 */
export async function refundStaleAiRequests(ctx: Pick<AppContext, 'database'>, maxAgeMs: number): Promise<string[]> {
  const stale = await ctx.database.db
    .select({ id: aiRequests.id })
    .from(aiRequests)
    .where(and(eq(aiRequests.status, 'pending'), lt(aiRequests.createdAt, sql`now() - make_interval(secs => ${maxAgeMs / 1000})`)))
    .limit(500);
  const done: string[] = [];
  for (const r of stale) if (await refundAiRequest(ctx.database.db, r.id, 'AI_TIMEOUT')) done.push(r.id);
  return done;
}

/**
 * Housekeeping (decision 022, issue 21 point 15): a rewrite is charged with its result, and the page then
 * confirms that it applied it (`POST /api/credit/use`). A rewrite still unconfirmed AI_LIMITS.creditUseWindowMs
 * after it completed was never applied — the confirmation failed (network, session end) and the page
 * cancelled the apply — so its charge is returned: the row flips `completed` → `refunded` (error code
 * `NOTHING_TO_CHARGE`) only while `confirmed_at` is still null, in the transaction that refunds the ledger
 * spend (itself once per key). A parallel sweep or a late confirmation sees the other's state, so the
 * customer is refunded exactly once, or confirmed and charged, never both.
 * @param opts.now the clock (tests); opts.windowMs the confirmation window (default AI_LIMITS.creditUseWindowMs); opts.limit rows per call
 * @returns the ids of the rewrites this call refunded
 */
export async function refundUnconfirmedRewrites(ctx: Pick<AppContext, 'database'>, opts: { now?: Date; windowMs?: number; limit?: number } = {}): Promise<string[]> {
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - (opts.windowMs ?? AI_LIMITS.creditUseWindowMs));
  const db = ctx.database.db;
  const due = await db
    .select({ id: aiRequests.id })
    .from(aiRequests)
    .where(and(eq(aiRequests.kind, 'rewrite'), eq(aiRequests.status, 'completed'), isNull(aiRequests.confirmedAt), lt(aiRequests.finishedAt, cutoff)))
    .limit(opts.limit ?? 500);
  const done: string[] = [];
  for (const r of due) {
    const refunded = await inTransaction(db, async (tx) => {
      const rows = await tx
        .update(aiRequests)
        .set({ status: 'refunded', errorCode: 'NOTHING_TO_CHARGE' })
        .where(and(eq(aiRequests.id, r.id), eq(aiRequests.status, 'completed'), isNull(aiRequests.confirmedAt)))
        .returning({ cost: aiRequests.cost });
      if (!rows.length) return false;
      if (rows[0]!.cost > 0) await refund(tx, { spendKey: aiSpendKey(r.id), reason: 'ai rewrite never applied' });
      return true;
    });
    if (refunded) done.push(r.id);
  }
  return done;
}

/** How long a pending request may take before housekeeping refunds it: every attempt's timeout plus a margin (ms). */
export function staleAiRequestAgeMs(config: AppContext['config']): number {
  return config.llm.timeoutMs * (config.llm.maxRetries + 1) * 2 + 5 * 60_000;
}

/** The configured model. @throws AppError NOT_CONFIGURED when LLM_MODEL is unset (nothing is charged). */
export function requireLlm(ctx: Pick<AppContext, 'engines'>): LlmProvider {
  return ctx.engines.get('llm');
}

/** The error code a failed model call answers with (decision 022). */
export function llmErrorCode(err: unknown): ErrorCode {
  if (err instanceof AppError) return err.code;
  if (err instanceof LlmError) {
    if (err.failure === 'refused') return 'AI_REFUSED';
    if (err.failure === 'timeout') return 'AI_TIMEOUT';
    return 'AI_UNAVAILABLE';
  }
  return 'INTERNAL';
}

/**
 * Refuses text holding a banned keyword (002 §5: case-insensitive, the server's list) before any vendor
 * call or charge. @throws AppError NSFW_PROMPT_BLOCKED
 */
export async function assertNoBannedKeyword(ctx: Pick<AppContext, 'database'>, ...texts: (string | undefined)[]): Promise<void> {
  const words = await bannedKeywords(ctx);
  const hay = texts.filter(Boolean).join('\n').toLowerCase();
  if (words.some((w) => w && hay.includes(w.toLowerCase()))) throw new AppError('NSFW_PROMPT_BLOCKED');
}

/** The caller's total balance (credits). */
export async function balanceOf(ctx: Pick<AppContext, 'database'>, userId: number): Promise<number> {
  return (await getBalance(ctx.database.db, userId)).total;
}
