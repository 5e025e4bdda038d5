import { createHmac } from 'node:crypto';
import { and, eq, gt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { signInEvents, type SignInKind } from '../../db/schema';
import { clientKey } from '../../lib/rate-limit';

/**
 * Sign-in history (issue 21 point 4, decision 031): who signed up or in from which network and browser,
 * kept SIGN_IN_HISTORY_DAYS whatever the sessions do (logout deletes a session, never its history).
 * The affiliate programme compares a referred sign-up with the sharer's history over the same window
 * (`recentSignInMatch`), so a sharer who logs out and signs a second account up from the same address
 * or browser earns nothing. It lives with the users (below auth, affiliate and account, which all use it:
 * auth records, affiliate compares, account purges; decision 039).
 */

/**
 * Days a sign-in is remembered, and the window in which a referred sign-up from the same network or
 * browser counts as the sharer's own (decision 013's 30 days). Declared once: retention and window are
 * the same number, so nothing is kept longer than the check needs.
 */
export const SIGN_IN_HISTORY_DAYS = 30;

/** How a request looked, as the history stores it: keyed hashes only, never the address or the cookie. */
export interface SignInTrace {
  /** HMAC of the client address (IPv4 as is; IPv6 by its /64, `clientKey`). */
  ipHash: string;
  /** HMAC of the device cookie's nonce the browser holds after the request, or null without one. */
  deviceHash: string | null;
}

/** The history's hashing key: HMAC(APP_SECRET, label), distinct from every other key derived from it. */
export function signInTraceKey(appSecret: string): Buffer {
  return createHmac('sha256', appSecret).update('dewy:sign-in-history:v1').digest();
}

const keyed = (key: Buffer, label: string, value: string) => createHmac('sha256', key).update(`${label}:${value}`).digest('hex').slice(0, 40);

/**
 * The trace of a request.
 * @param key from `signInTraceKey`
 * @param ip `req.ip` (which hop: TRUST_PROXY)
 * @param deviceNonce the nonce of the device cookie the browser holds (`readDeviceCookie(...).nonce`,
 *   or the one just issued), null without one
 */
export function signInTrace(key: Buffer, ip: string, deviceNonce: string | null): SignInTrace {
  return { ipHash: keyed(key, 'ip', clientKey(ip)), deviceHash: deviceNonce ? keyed(key, 'device', deviceNonce) : null };
}

/** Adds one row to the history of `userId` (database clock). */
export async function recordSignInEvent(db: DbOrTx, p: { userId: number; kind: SignInKind; trace: SignInTrace }): Promise<void> {
  await db.insert(signInEvents).values({ userId: p.userId, kind: p.kind, ipHash: p.trace.ipHash, deviceHash: p.trace.deviceHash });
}

/**
 * Whether `userId` signed up or in within the last SIGN_IN_HISTORY_DAYS (before `now`) from the same
 * browser (device cookie) or the same network (client address, IPv6 /64) as `trace`.
 * @returns 'same_device' (checked first), 'same_network', or null
 */
export async function recentSignInMatch(db: DbOrTx, userId: number, trace: SignInTrace, now: Date = new Date()): Promise<'same_device' | 'same_network' | null> {
  const since = new Date(now.getTime() - SIGN_IN_HISTORY_DAYS * 86_400_000);
  const rows = await db
    .select({ deviceHash: signInEvents.deviceHash })
    .from(signInEvents)
    .where(
      and(
        eq(signInEvents.userId, userId),
        gt(signInEvents.createdAt, since),
        or(eq(signInEvents.ipHash, trace.ipHash), trace.deviceHash !== null ? eq(signInEvents.deviceHash, trace.deviceHash) : undefined),
      ),
    )
    .limit(50);
  if (!rows.length) return null;
  return trace.deviceHash !== null && rows.some((r) => r.deviceHash === trace.deviceHash) ? 'same_device' : 'same_network';
}

/**
 * Deletes history rows older than SIGN_IN_HISTORY_DAYS (housekeeping, every minute). Rows another
 * transaction holds are skipped, never waited for.
 * @returns how many rows were deleted
 */
export async function purgeOldSignInEvents(db: DbOrTx, now: Date = new Date(), batch = 5000): Promise<number> {
  const before = new Date(now.getTime() - SIGN_IN_HISTORY_DAYS * 86_400_000);
  const res = await db.execute(sql`
    delete from ${signInEvents} where ${signInEvents.id} in (
      select ${signInEvents.id} from ${signInEvents} where ${signInEvents.createdAt} < ${before.toISOString()}::timestamptz
      limit ${batch} for update skip locked)`);
  return (res as { rowCount?: number | null; affectedRows?: number }).rowCount ?? (res as { affectedRows?: number }).affectedRows ?? 0;
}

/** Deletes every history row of a user (the account purge, decision 020). */
export async function deleteSignInEventsOfUser(db: DbOrTx, userId: number): Promise<void> {
  await db.delete(signInEvents).where(eq(signInEvents.userId, userId));
}
