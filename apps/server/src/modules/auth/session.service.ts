import { createHash, randomBytes } from 'node:crypto';
import { eq, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { sessions, users, type UserRow } from '../../db/schema';

export const SESSION_COOKIE = 'dewy_sid';

export interface SessionPolicy {
  /** Idle expiry (ms since last use). */
  idleMs: number;
  /** Absolute expiry (ms since login). */
  absoluteMs: number;
}

/** SHA-256 (hex) of the cookie token: the row id, so the database never holds a usable token. */
export function sessionIdFor(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Starts a session for a user: a fresh random token at every login (no fixation), stored hashed.
 * @returns the token for the cookie and the absolute expiry.
 */
export async function createSession(
  db: DbOrTx,
  p: { userId: number; ip?: string; userAgent?: string; policy: SessionPolicy },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + p.policy.absoluteMs);
  await db.insert(sessions).values({
    id: sessionIdFor(token),
    userId: p.userId,
    expiresAt,
    ip: p.ip ?? null,
    userAgent: p.userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
}

export type SessionLookup = { state: 'valid'; user: UserRow; sessionId: string } | { state: 'expired' } | { state: 'unknown' };

/**
 * Resolves a cookie token to its user. Expired sessions (idle or absolute) are deleted and reported
 * as `expired`; an unknown token is `unknown`. A valid session's `last_seen_at` is bumped at most once
 * a minute to keep writes low.
 */
export async function resolveSession(db: DbOrTx, token: string, policy: SessionPolicy): Promise<SessionLookup> {
  const id = sessionIdFor(token);
  const rows = await db.select({ s: sessions, u: users }).from(sessions).innerJoin(users, eq(users.id, sessions.userId)).where(eq(sessions.id, id));
  const row = rows[0];
  if (!row) return { state: 'unknown' };
  const now = Date.now();
  if (row.s.expiresAt.getTime() <= now || row.s.lastSeenAt.getTime() + policy.idleMs <= now) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return { state: 'expired' };
  }
  if (now - row.s.lastSeenAt.getTime() > 60_000) {
    await db.update(sessions).set({ lastSeenAt: new Date(now) }).where(eq(sessions.id, id));
  }
  return { state: 'valid', user: row.u, sessionId: id };
}

export async function deleteSession(db: DbOrTx, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionIdFor(token)));
}

export async function deleteSessionsOfUser(db: DbOrTx, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Removes expired sessions (run periodically). */
export async function purgeExpiredSessions(db: DbOrTx, policy: SessionPolicy): Promise<void> {
  const now = new Date();
  await db.delete(sessions).where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, new Date(now.getTime() - policy.idleMs))));
}

