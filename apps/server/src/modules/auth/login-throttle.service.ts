import { eq, sql } from 'drizzle-orm';
import type { LoginLimits } from '../../config';
import type { DbOrTx } from '../../db/client';
import { rateLimits } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { clientKey, dbNow, msUntil, nowPlusMs } from '../../lib/rate-limit';

/**
 * Login throttling after the OWASP Authentication Cheat Sheet ("Account Lockout": count failures, slow
 * down with a growing delay rather than lock the owner out) and its device-cookie pattern. Every
 * attempt is reserved in counters of `rate_limits` BEFORE the password is verified, under row locks, so
 * no amount of concurrency lets more attempts reach argon2 than the budgets allow.
 */

/** One counter a login attempt is charged to. */
export interface LoginBucket {
  /** `rate_limits.key`. */
  key: string;
  /** Failures admitted without delay; past it each further one doubles the wait. */
  budget: number;
  /** On a correct password: `clear` resets the counter (OWASP), `refund` only takes this attempt back. */
  onSuccess: 'clear' | 'refund';
}

/**
 * The counters a login attempt is charged to.
 * - From a browser with a valid device cookie of this account: only that device's counter
 *   (`login:device:<nonce>`, budget `perAccount`), so failures it did not make never slow it down.
 * - Otherwise: (e-mail, client) `login:acct_ip:<email>|<ip>` (budget `perAccount`), the client
 *   `login:ip:<ip>` (budget `perIp`, across e-mails) and the e-mail across all untrusted clients
 *   `login:acct:<email>` (budget `perAccountUntrusted`, slows a distributed guess).
 * @param emailNormalized the normalised e-mail (existing or not: unknown accounts are throttled alike)
 * @param ip `req.ip`; IPv6 counts per /64 (`clientKey`)
 * @param deviceNonce the nonce of a valid device cookie issued to this account, else null
 */
export function loginBuckets(emailNormalized: string, ip: string, deviceNonce: string | null, limits: LoginLimits): LoginBucket[] {
  if (deviceNonce) return [{ key: `login:device:${deviceNonce}`, budget: limits.perAccount, onSuccess: 'clear' }];
  const client = clientKey(ip);
  return [
    { key: `login:acct_ip:${emailNormalized}|${client}`, budget: limits.perAccount, onSuccess: 'clear' },
    { key: `login:ip:${client}`, budget: limits.perIp, onSuccess: 'refund' },
    { key: `login:acct:${emailNormalized}`, budget: limits.perAccountUntrusted, onSuccess: 'refund' },
  ];
}

/**
 * The wait (ms) after the `failures`-th failure of a counter with `budget` free failures: 0 below the
 * budget, then `delayBaseMs · 2^(failures − budget)`, capped at `delayMaxMs`.
 */
export function delayAfter(failures: number, budget: number, limits: Pick<LoginLimits, 'delayBaseMs' | 'delayMaxMs'>): number {
  if (failures < budget) return 0;
  return Math.min(limits.delayBaseMs * 2 ** Math.min(failures - budget, 40), limits.delayMaxMs);
}

export type LoginReservation = { admitted: true } | { admitted: false; retryAfterMs: number };

/**
 * Reserves one attempt in every bucket, all or nothing, in one transaction:
 * 1. `INSERT … ON CONFLICT (key) DO UPDATE … RETURNING` locks the rows (created when missing) in key order,
 *    so concurrent logins queue on them and never deadlock;
 * 2. refused when any counter's next-allowed time lies ahead (nothing is charged), with the longest wait;
 * 3. else each counter is charged as a failure — a counter past its reset starts from 0 — and its next
 *    allowed time set to now + `delayAfter(hits)`; it resets `windowMs` after its last failure (never
 *    before its delay ends).
 * The reservation stands as a failure until `settleSuccessfulLogin` takes it back.
 * Times come from the database clock (`dbNow`), shared by every process.
 */
export async function reserveLoginAttempt(db: DbOrTx, buckets: LoginBucket[], limits: LoginLimits): Promise<LoginReservation> {
  const ordered = [...buckets].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return inTransaction(db, async (tx) => {
    const rows = await tx
      .insert(rateLimits)
      .values(ordered.map((b) => ({ key: b.key, resetAt: dbNow, nextAllowedAt: dbNow })))
      .onConflictDoUpdate({ target: rateLimits.key, set: { key: sql`excluded.key` } })
      .returning({
        key: rateLimits.key,
        hits: sql<number>`case when ${rateLimits.resetAt} <= ${dbNow} then 0 else ${rateLimits.hits} end`.mapWith(Number),
        waitMs: msUntil(rateLimits.nextAllowedAt),
      });
    const waitMs = Math.max(0, ...rows.map((r) => r.waitMs));
    if (waitMs > 0) return { admitted: false, retryAfterMs: waitMs };
    for (const b of ordered) {
      const hits = (rows.find((r) => r.key === b.key)?.hits ?? 0) + 1;
      const delayMs = delayAfter(hits, b.budget, limits);
      await tx
        .update(rateLimits)
        .set({ hits, nextAllowedAt: nowPlusMs(delayMs), resetAt: nowPlusMs(Math.max(limits.windowMs, delayMs)) })
        .where(eq(rateLimits.key, b.key));
    }
    return { admitted: true };
  });
}

/**
 * After a correct password: clears the `clear` counters (the (account, client) or device counter, as
 * OWASP resets the failure count at a successful login) and takes the reservation back from the
 * `refund` ones (per-IP, per-account), lifting their delay when they fall below budget again. One
 * single-row statement each, so it holds one row lock at a time and cannot deadlock a reservation.
 */
export async function settleSuccessfulLogin(db: DbOrTx, buckets: LoginBucket[]): Promise<void> {
  for (const b of buckets) {
    if (b.onSuccess === 'clear') {
      await db.delete(rateLimits).where(eq(rateLimits.key, b.key));
      continue;
    }
    await db
      .update(rateLimits)
      .set({
        hits: sql`greatest(${rateLimits.hits} - 1, 0)`,
        nextAllowedAt: sql`case when ${rateLimits.hits} - 1 < ${b.budget} then least(${rateLimits.nextAllowedAt}, ${dbNow}) else ${rateLimits.nextAllowedAt} end`,
      })
      .where(eq(rateLimits.key, b.key));
  }
}
