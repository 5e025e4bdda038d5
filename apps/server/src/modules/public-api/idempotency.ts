import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { apiIdempotencyKeys } from '../../db/schema';
import { AppError } from '../../lib/app-error';

/** How long an answer is kept for its Idempotency-Key (ms): a day, as Stripe does. */
export const API_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still "in progress" after this long died with its process: its key is free again (ms). */
const ABANDONED_MS = 5 * 60 * 1000;

/** SHA-256 (hex) of a request's identifying bytes (an upload's file, a cancel's job id). */
export const requestHashOf = (...parts: (string | Buffer)[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex');
};

/**
 * Runs a `/v1` POST that is not a kernel job (the kernel keeps its own keys) at most once per
 * Idempotency-Key (decision 040 §2): the first request under `key` (per account and route) claims it
 * with an "in progress" row (one INSERT … ON CONFLICT DO NOTHING: exact under parallel requests), runs,
 * and keeps its answer for 24 h; a retry with the same request hash gets that answer again; another
 * request under the key is refused. A failed request frees its key (the client may retry).
 * @param run the route's work; its result is what the first request and every replay answer
 * @returns the answer and whether it was a replay
 * @throws AppError IDEMPOTENCY_KEY_REUSED (same key, another request), REQUEST_IN_PROGRESS (the first still runs); whatever `run` throws
 */
export async function onceForKey<T>(db: DbOrTx, scope: { userId: number; route: string; key: string; requestHash: string }, run: () => Promise<T>, now = new Date()): Promise<{ value: T; replayed: boolean }> {
  const where = and(eq(apiIdempotencyKeys.userId, scope.userId), eq(apiIdempotencyKeys.route, scope.route), eq(apiIdempotencyKeys.key, scope.key));
  // An expired answer, or a claim whose process died, no longer holds the key.
  await db
    .delete(apiIdempotencyKeys)
    .where(and(where, or(lt(apiIdempotencyKeys.createdAt, new Date(now.getTime() - API_IDEMPOTENCY_TTL_MS)), and(isNull(apiIdempotencyKeys.statusCode), lt(apiIdempotencyKeys.createdAt, new Date(now.getTime() - ABANDONED_MS))))));
  const claimed = await db
    .insert(apiIdempotencyKeys)
    .values({ userId: scope.userId, route: scope.route, key: scope.key, requestHash: scope.requestHash, createdAt: now })
    .onConflictDoNothing()
    .returning({ key: apiIdempotencyKeys.key });
  if (!claimed.length) {
    const [prior] = await db.select().from(apiIdempotencyKeys).where(where);
    if (!prior) throw new AppError('REQUEST_IN_PROGRESS'); // freed between the two statements: the client retries
    if (prior.requestHash !== scope.requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    if (prior.statusCode === null) throw new AppError('REQUEST_IN_PROGRESS');
    return { value: prior.response as T, replayed: true };
  }
  try {
    const value = await run();
    await db.update(apiIdempotencyKeys).set({ statusCode: 200, response: value as object }).where(where);
    return { value, replayed: false };
  } catch (err) {
    await db.delete(apiIdempotencyKeys).where(where);
    throw err;
  }
}

/** Deletes answers past their day (housekeeping). @returns how many */
export async function purgeApiIdempotencyKeys(db: DbOrTx, now = new Date()): Promise<number> {
  const gone = await db.delete(apiIdempotencyKeys).where(lt(apiIdempotencyKeys.createdAt, new Date(now.getTime() - API_IDEMPOTENCY_TTL_MS))).returning({ key: apiIdempotencyKeys.key });
  return gone.length;
}
