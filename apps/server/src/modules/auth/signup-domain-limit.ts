import { and, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rateLimits } from '../../db/schema';
import { dbNow, hitFixedWindow, msUntil } from '../../lib/rate-limit';

/**
 * The per-e-mail-domain sign-up burst (decision 008), counting only accounts actually created (issue 21
 * point 10, decision 031): a sign-up with an address that already has an account never touches it, so
 * nobody can close gmail.com by replaying existing gmail addresses. A fixed window in `rate_limits`
 * (key `signup:domain:<domain>`), as before.
 */

/** The part after the last @, lower-cased: the key of the per-domain sign-up burst limit. */
export function emailDomain(email: string): string {
  return email.trim().toLowerCase().split('@').at(-1) ?? '';
}

const keyOf = (domain: string) => `signup:domain:${domain}`;

/** Seconds until the domain's window resets when it is full (`max` accounts created), else null. Counts nothing. */
export async function signupDomainClosed(db: DbOrTx, domain: string, max: number): Promise<number | null> {
  const [row] = await db
    .select({ hits: rateLimits.hits, ttlMs: msUntil(rateLimits.resetAt) })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, keyOf(domain)), gt(rateLimits.resetAt, dbNow)));
  return row && row.hits >= max ? Math.max(1, Math.ceil(row.ttlMs / 1000)) : null;
}

/**
 * Reserves one account of the domain's burst (one upsert under the row lock, so parallel sign-ups get
 * distinct counts). Past `max` the reservation is taken back at once.
 * @returns `{ ok: true, release }` — `release` takes the reservation back (the insert lost a race to
 *   the same address) — or `{ ok: false, retryAfterSeconds }`
 */
export async function reserveSignupDomain(
  db: DbOrTx,
  domain: string,
  limits: { max: number; windowMs: number },
): Promise<{ ok: true; release(): Promise<void> } | { ok: false; retryAfterSeconds: number }> {
  const key = keyOf(domain);
  const release = async () => {
    await db.update(rateLimits).set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` }).where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, dbNow)));
  };
  const hit = await hitFixedWindow(db, key, limits.windowMs);
  if (hit.hits > limits.max) {
    await release();
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(hit.ttlMs / 1000)) };
  }
  return { ok: true, release };
}
