import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyInstance } from 'fastify';
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { rateLimits } from '../db/schema';
import { AppError } from './app-error';

/**
 * The database's wall clock, the one clock every API process shares. `clock_timestamp()`, not `now()`:
 * `now()` is the transaction's start, so a request that waited for a row lock would read times the
 * previous holder wrote as lying in its future.
 */
export const dbNow = sql`clock_timestamp()`;

/** `dbNow + ms` in SQL. */
export const nowPlusMs = (ms: number) => sql`clock_timestamp() + (${ms}::double precision * interval '1 millisecond')`;

/** Milliseconds from now until a timestamp column (0 when it has passed), rounded up. */
export const msUntil = (column: unknown) => sql<number>`greatest(0, ceil(extract(epoch from (${column} - clock_timestamp())) * 1000))::float8`.mapWith(Number);

/**
 * A client address as a rate-limit key. IPv4 as is (also when IPv4-mapped, `::ffff:a.b.c.d`); IPv6 by
 * its /64 network, since one subscriber usually holds a whole /64 and can rotate through it (OWASP
 * Denial of Service Cheat Sheet: rate-limit IPv6 by prefix). Anything else is returned unchanged.
 * @param ip `req.ip` — which hop that is depends on TRUST_PROXY (config.ts).
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * Counts one hit on a fixed-window counter in `rate_limits` with a single
 * `INSERT … ON CONFLICT (key) DO UPDATE … RETURNING`: the row lock makes concurrent hits on one key
 * return distinct, consecutive counts, on PostgreSQL and PGlite alike, across any number of processes.
 * A window starts at the first hit and resets at its end.
 * @param windowMs window length (ms)
 * @returns the count including this hit, and the ms left in the window
 */
export async function hitFixedWindow(db: DbOrTx, key: string, windowMs: number): Promise<{ hits: number; ttlMs: number }> {
  const expired = sql`${rateLimits.resetAt} <= ${dbNow}`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, hits: 1, resetAt: nowPlusMs(windowMs) })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`case when ${expired} then 1 else ${rateLimits.hits} + 1 end`,
        resetAt: sql`case when ${expired} then ${nowPlusMs(windowMs)} else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ hits: rateLimits.hits, ttlMs: msUntil(rateLimits.resetAt) });
  if (!row) throw new Error('rate-limit upsert returned no row');
  return row;
}

/**
 * An @fastify/rate-limit store on the application database (README "Custom Store"), so a limit holds
 * across API processes. Each `incr` is one `hitFixedWindow`; the key is the route's keyGenerator result
 * as is (our key generators name their limit, e.g. `signup:ip:…`). `continueExceeding` and
 * `exponentialBackoff` are not supported: a refused request counts, the window does not move.
 */
export function databaseRateLimitStore(db: DbOrTx): FastifyRateLimitStoreCtor {
  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow?: number): void {
      hitFixedWindow(db, key, timeWindow ?? 60_000).then(
        (r) => callback(null, { current: r.hits, ttl: r.ttlMs }),
        (err: Error) => callback(err),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/**
 * Registers @fastify/rate-limit with the database store, off by default (`global: false`): a route opts
 * in with `config.rateLimit` (with `hook: 'preHandler'` when its key needs the parsed body). A refusal is
 * our AppError RATE_LIMITED (429, catalogue message in the caller's language) with `Retry-After` and the
 * `x-ratelimit-*` headers. Also decorates `app.createRateLimit` for a second limit inside a handler.
 */
export async function registerRateLimit(app: FastifyInstance, db: DbOrTx): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(db),
    errorResponseBuilder: (_req, c) => new AppError('RATE_LIMITED', { message: `rate limit ${c.max} exceeded`, details: { retryAfterSeconds: Math.ceil(c.ttl / 1000) } }),
  });
}

/**
 * Deletes counters that no longer count: past their reset and their delay. Rows another request holds
 * locked are skipped (never waited for), so the purge cannot deadlock with a login. Run periodically.
 * @returns how many rows were deleted
 */
export async function purgeRateLimits(db: DbOrTx, batch = 5000): Promise<number> {
  const res = await db.execute(sql`
    delete from ${rateLimits} where ${rateLimits.key} in (
      select ${rateLimits.key} from ${rateLimits}
      where ${rateLimits.resetAt} < now() and ${rateLimits.nextAllowedAt} < now()
      limit ${batch} for update skip locked)`);
  return (res as { rowCount?: number | null; affectedRows?: number }).rowCount ?? (res as { affectedRows?: number }).affectedRows ?? 0;
}
