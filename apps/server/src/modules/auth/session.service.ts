import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNotNull, lt, ne, or } from 'drizzle-orm';
import { DORMANCY_RULES } from '@dewy/contracts';
import type { DbOrTx } from '../../db/client';
import { sessions, users, type UserRow } from '../../db/schema';
import { awaitEcho, forgetSessionIds, notificationMark, type SessionCache } from './session-cache';

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
  await recordSignIn(db, p.userId, new Date());
  return { token, expiresAt };
}

/**
 * Records a sign-in for the dormancy rule (terms §14, decision 027): `users.last_login_at` = `now`, and
 * a dormant or notified account is restored at once (`dormant_at` and the notice's marks cleared; its
 * credits and everything else stay as they are). Written only when the stored sign-in is older than
 * DORMANCY_RULES.loginWriteMs (one day) or the account is dormant or notified, so most sign-ins and
 * session uses write nothing (and so do not invalidate the session cache).
 * @returns whether the row was written
 */
export async function recordSignIn(db: DbOrTx, userId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ lastLoginAt: now, dormancyNoticeAt: null, dormancyNoticeSentAt: null, dormantAt: null })
    .where(and(eq(users.id, userId), or(lt(users.lastLoginAt, new Date(now.getTime() - DORMANCY_RULES.loginWriteMs)), isNotNull(users.dormancyNoticeAt), isNotNull(users.dormantAt))))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Whether a session's use should refresh its user's last sign-in (`recordSignIn`), decided from the row in hand. */
const signInStale = (u: UserRow, now: number) => u.dormantAt !== null || u.dormancyNoticeAt !== null || now - u.lastLoginAt.getTime() > DORMANCY_RULES.loginWriteMs;

export type SessionLookup = { state: 'valid'; user: UserRow; sessionId: string } | { state: 'expired' } | { state: 'unknown' };

/** A session's last use is written at most this often (ms), to keep writes low. */
const LAST_SEEN_WRITE_MS = 60_000;

const isExpired = (expiresAt: number, lastSeenAt: number, now: number, policy: SessionPolicy) => expiresAt <= now || lastSeenAt + policy.idleMs <= now;

/**
 * Resolves a cookie token to its user. Expired sessions (idle or absolute) are deleted and reported
 * as `expired`; an unknown token is `unknown`. A valid session's `last_seen_at` is bumped at most once
 * a minute to keep writes low.
 *
 * With `cache` (decision 026), a session resolved within the cache's TTL is answered from memory once
 * the cache has applied every invalidation committed before the request (`SessionCache.fresh`; the
 * expiry is still checked against the clock; a session that looks expired is re-read); a miss runs one
 * sessions ⋈ users query, shared by concurrent misses of the same token, and stores what it read unless
 * an invalidation overlapped the read. Invalidation: see session-cache.ts.
 */
export async function resolveSession(db: DbOrTx, token: string, policy: SessionPolicy, cache?: SessionCache): Promise<SessionLookup> {
  const id = sessionIdFor(token);
  if (!cache?.trusted) return loadSession(db, id, policy);
  if (!cache.needsFresh) {
    // Alone on the database (or PGlite): every session deletion ran in this process and was forgotten at once.
    const hit = cache.get(id);
    if (hit && !isExpired(hit.expiresAt, hit.lastSeenAt, Date.now(), policy)) return { state: 'valid', user: hit.user, sessionId: id };
  } else if (cache.get(id)) {
    // Other API processes share the database: apply every invalidation committed before this request
    // first (a logout there), then answer from memory.
    const synced = await cache.fresh().then(
      () => true,
      () => false,
    );
    const hit = synced ? cache.get(id) : undefined;
    if (hit && !isExpired(hit.expiresAt, hit.lastSeenAt, Date.now(), policy)) return { state: 'valid', user: hit.user, sessionId: id };
    if (!synced) return loadSession(db, id, policy);
  }
  return cache.coalesce(id, async () => {
    const ticket = cache.begin();
    const found = await loadSession(db, id, policy);
    if (found.state === 'valid') cache.store(ticket, { sessionId: id, user: found.user, expiresAt: found.expiresAt, lastSeenAt: found.lastSeenAt });
    return found;
  });
}

/** The database half of `resolveSession`: one join, plus a delete (expired) or a `last_seen_at` bump. */
async function loadSession(db: DbOrTx, id: string, policy: SessionPolicy): Promise<SessionLookup & { expiresAt: number; lastSeenAt: number }> {
  const rows = await db.select({ s: sessions, u: users }).from(sessions).innerJoin(users, eq(users.id, sessions.userId)).where(eq(sessions.id, id));
  const row = rows[0];
  if (!row) return { state: 'unknown', expiresAt: 0, lastSeenAt: 0 };
  const now = Date.now();
  const expiresAt = row.s.expiresAt.getTime();
  let lastSeenAt = row.s.lastSeenAt.getTime();
  if (isExpired(expiresAt, lastSeenAt, now, policy)) {
    await deleteSessionById(db, id);
    return { state: 'expired', expiresAt, lastSeenAt };
  }
  if (now - lastSeenAt > LAST_SEEN_WRITE_MS) {
    await db.update(sessions).set({ lastSeenAt: new Date(now) }).where(eq(sessions.id, id));
    lastSeenAt = now;
  }
  // A session in use counts as signed in (dormancy, decision 027): at most one write a day per user.
  if (signInStale(row.u, now) && (await recordSignIn(db, row.u.id, new Date(now)))) {
    row.u = { ...row.u, lastLoginAt: new Date(now), dormancyNoticeAt: null, dormancyNoticeSentAt: null, dormantAt: null };
  }
  return { state: 'valid', user: row.u, sessionId: id, expiresAt, lastSeenAt };
}

/*
 * Deleting sessions (decision 026). Every function here that deletes sessions follows one pattern, so
 * that no process answers from its cache for a deleted session:
 *
 *   const mark = notificationMark();                    // before the delete (PGlite notifies during it)
 *   const gone = await db.delete(sessions).where(…).returning(ENDED_COLUMNS);
 *   await sessionsEnded(db, mark, gone);
 *
 * `sessionsEnded` forgets the sessions in this process at once and, outside a transaction, waits until
 * this process hears the sessions trigger's notification (migration 0013) — sent to every process at
 * the same moment — at most 250 ms. Inside a caller's transaction it cannot wait (the notification
 * comes at commit): the caller may `await awaitEcho(userIds, mark)` after its commit.
 */

/** The columns a deletion returns for `sessionsEnded`. */
export const ENDED_COLUMNS = { id: sessions.id, userId: sessions.userId };

/**
 * Ends deleted sessions everywhere: forgets them in this process's caches at once and, when `db` is not
 * a transaction, awaits the echo of the trigger's notification (see above).
 * @param mark `notificationMark()` taken before the delete
 * @param gone the deleted rows (`.returning(ENDED_COLUMNS)`)
 */
export async function sessionsEnded(db: DbOrTx, mark: number, gone: readonly { id: string; userId: number }[]): Promise<void> {
  if (gone.length === 0) return;
  forgetSessionIds(gone.map((r) => r.id));
  if ('rollback' in db) return;
  await awaitEcho([...new Set(gone.map((r) => r.userId))], mark);
}

async function deleteSessionById(db: DbOrTx, id: string): Promise<void> {
  const mark = notificationMark();
  const gone = await db.delete(sessions).where(eq(sessions.id, id)).returning(ENDED_COLUMNS);
  await sessionsEnded(db, mark, gone);
}

/** Ends one session (logout, or the old session of a browser that logs in again). */
export async function deleteSession(db: DbOrTx, token: string): Promise<void> {
  await deleteSessionById(db, sessionIdFor(token));
}

/** Ends every session of a user (e.g. the account is disabled or deleted). */
export async function deleteSessionsOfUser(db: DbOrTx, userId: number): Promise<void> {
  const mark = notificationMark();
  const gone = await db.delete(sessions).where(eq(sessions.userId, userId)).returning(ENDED_COLUMNS);
  await sessionsEnded(db, mark, gone);
}

/**
 * Ends every session of a user except `keepSessionId` (a session id = `sessionIdFor(token)`; null ends
 * them all). Used after a password reset (decision 020): the browser that reset keeps its session.
 */
export async function deleteOtherSessionsOfUser(db: DbOrTx, userId: number, keepSessionId: string | null): Promise<void> {
  const mark = notificationMark();
  const gone = await db
    .delete(sessions)
    .where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId))
    .returning(ENDED_COLUMNS);
  await sessionsEnded(db, mark, gone);
}

/**
 * Records that the user of a session has just proved who they are again (decision 020): the social
 * sign-in calls this when a signed-in user signs in again with their provider, so a social-only
 * account may then request its deletion within ACCOUNT_RULES.reauthFreshMs.
 */
export async function markSessionReauthenticated(db: DbOrTx, sessionId: string, at: Date = new Date()): Promise<void> {
  await db.update(sessions).set({ reauthenticatedAt: at }).where(eq(sessions.id, sessionId));
}

/** When the user of a session last proved who they are (its sign-in, or `markSessionReauthenticated`); null when unknown. */
export async function sessionReauthenticatedAt(db: DbOrTx, sessionId: string): Promise<Date | null> {
  const rows = await db.select({ at: sessions.reauthenticatedAt }).from(sessions).where(eq(sessions.id, sessionId));
  return rows[0]?.at ?? null;
}

/**
 * Removes expired sessions (run periodically). A cached entry of an expired session is never served
 * (the cache checks both expiries), but the deleted ones are forgotten like any other deletion.
 * Exempt from the echo wait of `sessionsEnded` (see there).
 */
export async function purgeExpiredSessions(db: DbOrTx, policy: SessionPolicy): Promise<void> {
  const now = new Date();
  const gone = await db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, new Date(now.getTime() - policy.idleMs))))
    .returning(ENDED_COLUMNS);
  // No echo to wait for: nobody awaits the purge, and an expired session is never served anyway.
  forgetSessionIds(gone.map((r) => r.id));
}
