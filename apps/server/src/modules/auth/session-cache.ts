import type { Database } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { onUserChanged } from '../../lib/user-changes';

/**
 * The in-process session cache of the session path (issue 17, docs/decisions/026): a session resolved
 * from the database is kept for a few seconds, so `GET /api/auth/check` and the access hook of every
 * signed-in route answer from memory instead of a sessions ⋈ users query per request.
 *
 * Invalidation, from the most to the least immediate:
 * 1. In this process, at once: `forgetUser(userId)` / `forgetSessionIds(ids)` empty every cache of the
 *    process. session.service.ts calls them in every function that deletes sessions; the credit ledger,
 *    billing, account and profile writers announce a change of a user's row through lib/user-changes
 *    (`announceUserChanged`), which calls `forgetUser` (registered below; decision 039).
 * 2. In every process, at commit: triggers of migration 0013 `NOTIFY dewy_session_cache, 'u:<userId>'`
 *    on any UPDATE or DELETE of a `users` row and on any DELETE of a `sessions` row (or a change of its
 *    user or expiry), whoever writes it — also code that forgets step 1. Each cache LISTENs (PostgreSQL:
 *    one dedicated connection; PGlite: its in-process listener) and drops that user's entries.
 * 3. At the latest after the TTL (`SESSION_CACHE_TTL_MS`, default 5 s), should a notification be lost.
 * While the LISTEN connection is down the cache is bypassed (every lookup reads the database) and it
 * is emptied when the connection comes back, so a notification missed meanwhile cannot leave a stale
 * entry. A load that raced an invalidation (read before the write committed, finished after the
 * notification) is not stored: every load carries the invalidation counter it started at.
 */

/** The channel the triggers of migration 0013 notify on. Payload `u:<userId>`, or `*` for everything. */
export const SESSION_CACHE_CHANNEL = 'dewy_session_cache';

/** `application_name` of every API process's LISTEN connection: how a process finds out it is not alone. */
export const SESSION_CACHE_APPLICATION_NAME = 'dewy-session-cache';

/** How often a process re-counts the other API processes listening on its database (ms). */
const PEERS_POLL_MS = 1000;

/** One cached session: the row data `resolveSession` needs to answer without the database. */
export interface CachedSession {
  /** SHA-256 hex of the cookie token (the sessions row id). */
  sessionId: string;
  /** The user row, frozen: callers share it and must not change it. */
  user: Readonly<UserRow>;
  /** Absolute expiry (epoch ms). */
  expiresAt: number;
  /** `last_seen_at` as read or written by the load (epoch ms). */
  lastSeenAt: number;
}

interface Entry extends CachedSession {
  /** When the entry was stored (epoch ms): it is served until `storedAt + ttlMs`. */
  storedAt: number;
}

/** The invalidation counter a load started at (see `SessionCache.store`). */
export interface LoadTicket {
  seq: number;
}

export interface SessionCacheOptions {
  /** How long an entry is served (ms); 0 turns the cache off (every lookup reads the database). */
  ttlMs: number;
  /** Entries kept at most; the oldest is dropped past it. */
  maxEntries?: number;
  /** Clock (tests). */
  now?: () => number;
}

/** Every live cache of this process: `forgetUser` / `forgetSessionIds` reach them all at once. */
const LIVE = new Set<SessionCache>();

/** How many invalidation marks a cache keeps before it folds them into one flush mark. */
const MAX_MARKS = 4096;

/**
 * Sessions resolved recently, with invalidation marks so that a load which overlapped an invalidation
 * is never stored. Not a general-purpose cache: `get` answers only while the cache is `trusted` (its
 * LISTEN is up, or it needs none) and the entry is younger than the TTL.
 */
export class SessionCache {
  readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<number, Set<string>>();
  /** Loads in flight per session id, shared by concurrent misses of the same session. */
  private readonly inflight = new Map<string, Promise<unknown>>();
  /** Invalidation counter: bumped by every invalidation. */
  private seq = 0;
  /** Counter value of the last flush (everything invalid up to it). */
  private flushedAt = 0;
  private readonly userMarks = new Map<number, number>();
  private readonly sessionMarks = new Map<string, number>();
  private syncUp = false;
  /** Counters since start (diagnostics: the API logs them at shutdown). */
  readonly stats = { hits: 0, misses: 0, stored: 0, refused: 0, invalidations: 0, connectionDrops: 0, roundTrips: 0 };
  private closed = false;
  private stopSync?: () => Promise<void>;
  /** PostgreSQL: one round trip on the LISTEN connection (see `fresh`); PGlite: none needed. */
  private syncFn?: () => Promise<void>;
  /** The barrier round trip in flight, and the one that will be sent after it (shared by the callers meanwhile). */
  private barrierRunning?: Promise<void>;
  private barrierNext?: Promise<void>;
  /** Whether another API process listens on the same database (then hits wait for `fresh`). */
  private peersPresent = false;
  private peersTimer?: NodeJS.Timeout;

  constructor(opts: SessionCacheOptions) {
    this.ttlMs = Math.max(0, opts.ttlMs);
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.now = opts.now ?? Date.now;
    LIVE.add(this);
  }

  /** True when entries may be served: enabled, not closed, and its cross-process invalidation is listening. */
  get trusted(): boolean {
    return this.ttlMs > 0 && !this.closed && this.syncUp;
  }

  /** A fresh entry for the session id, or undefined (absent, older than the TTL, or cache not trusted). */
  get(sessionId: string): CachedSession | undefined {
    if (!this.trusted) return undefined;
    const e = this.entries.get(sessionId);
    if (!e || this.now() - e.storedAt >= this.ttlMs) {
      if (e) this.drop(sessionId);
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    return e;
  }

  /** Starts a load: take the ticket BEFORE reading the database, hand it to `store` afterwards. */
  begin(): LoadTicket {
    return { seq: this.seq };
  }

  /**
   * Stores what a load read, unless an invalidation of its user or session (or a flush) happened after
   * `ticket` was taken — then the read may predate a write, and the entry is not stored.
   * @returns whether it was stored
   */
  store(ticket: LoadTicket, s: CachedSession): boolean {
    if (!this.trusted) return false;
    if (this.flushedAt > ticket.seq || (this.userMarks.get(s.user.id) ?? -1) > ticket.seq || (this.sessionMarks.get(s.sessionId) ?? -1) > ticket.seq) {
      this.stats.refused++;
      return false;
    }
    this.stats.stored++;
    this.drop(s.sessionId);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.drop(oldest);
    }
    this.entries.set(s.sessionId, { ...s, user: Object.freeze({ ...s.user }), storedAt: this.now() });
    let set = this.byUser.get(s.user.id);
    if (!set) this.byUser.set(s.user.id, (set = new Set()));
    set.add(s.sessionId);
    return true;
  }

  /**
   * Runs `load` once for concurrent misses of the same session id: callers that arrive while a load
   * is in flight share its result. An invalidation of the session or its user detaches the flight, so
   * later callers start a fresh load.
   */
  async coalesce<T>(sessionId: string, load: () => Promise<T>): Promise<T> {
    const running = this.inflight.get(sessionId) as Promise<T> | undefined;
    if (running) return running;
    const p = load().finally(() => {
      if (this.inflight.get(sessionId) === p) this.inflight.delete(sessionId);
    });
    this.inflight.set(sessionId, p);
    return p;
  }

  /** Forgets every session of a user (its row changed, or its sessions were deleted). */
  invalidateUser(userId: number): void {
    this.stats.invalidations++;
    this.seq++;
    this.userMarks.set(userId, this.seq);
    for (const id of this.byUser.get(userId) ?? []) {
      this.entries.delete(id);
      this.inflight.delete(id);
    }
    this.byUser.delete(userId);
    this.compactMarks();
  }

  /** Forgets sessions by id (SHA-256 hex of their tokens). */
  invalidateSessions(sessionIds: readonly string[]): void {
    this.stats.invalidations++;
    this.seq++;
    for (const id of sessionIds) {
      this.sessionMarks.set(id, this.seq);
      this.drop(id);
      this.inflight.delete(id);
    }
    this.compactMarks();
  }

  /** Forgets everything (and every load in flight). */
  clear(): void {
    this.seq++;
    this.flushedAt = this.seq;
    this.entries.clear();
    this.byUser.clear();
    this.inflight.clear();
    this.userMarks.clear();
    this.sessionMarks.clear();
  }

  /** Number of entries held (tests, diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Subscribes the cache to `SESSION_CACHE_CHANNEL` on `database`; until the subscription is up (and
   * whenever the PostgreSQL LISTEN connection is down) the cache serves nothing. With the TTL at 0 it
   * does not subscribe at all.
   */
  async startSync(database: Pick<Database, 'listen'>): Promise<void> {
    if (this.ttlMs === 0 || this.closed || this.stopSync) return;
    const stop = await database.listen(SESSION_CACHE_CHANNEL, (payload) => this.onNotification(payload), {
      applicationName: SESSION_CACHE_APPLICATION_NAME,
      onState: (up) => {
        // Down: notifications may be lost from now on. Up again: whatever was missed is unknown.
        if (!up) this.stats.connectionDrops++;
        this.clear();
        this.syncUp = up;
      },
    });
    this.stopSync = stop;
    this.syncFn = stop.sync;
    if (this.closed) {
      await stop();
      return;
    }
    if (stop.peers) {
      const peers = stop.peers;
      const poll = async () => {
        this.peersPresent = (await peers().catch(() => 1)) > 0; // unknown: assume others, stay exact
      };
      await poll();
      this.peersTimer = setInterval(() => void poll(), PEERS_POLL_MS);
      this.peersTimer.unref();
    }
    this.clear();
    this.syncUp = true;
  }

  /** True when a hit must wait for `fresh()`: PostgreSQL with another API process on the database. */
  get needsFresh(): boolean {
    return this.syncFn !== undefined && this.peersPresent;
  }

  /**
   * Resolves once every invalidation committed before this call has been applied here. PGlite: at
   * once (it delivers notifications during the committing statement, in this process). PostgreSQL: after
   * a `sync()` round trip on the LISTEN connection that was SENT after this call — PostgreSQL hands a
   * listening session its pending notifications before it answers the next command. Callers share
   * round trips: while one is in flight, everyone arriving waits for the next one, so under load there
   * is one round trip at a time, not one per request. This is what makes a logout in one process
   * refuse the cookie on the very next request in every other process.
   * @throws when the LISTEN connection is down (the caller reads the database instead)
   */
  fresh(): Promise<void> {
    if (!this.syncFn) return Promise.resolve();
    if (this.barrierNext) return this.barrierNext;
    const sync = this.syncFn;
    // Wait for the round trip in flight: it may have been sent before our callers arrived.
    const before = this.barrierRunning ? this.barrierRunning.catch(() => {}) : Promise.resolve();
    const next: Promise<void> = before.then(() => {
      if (this.barrierNext === next) this.barrierNext = undefined; // later arrivals need a later round trip
      const running = sync();
      this.stats.roundTrips++;
      this.barrierRunning = running;
      return running.finally(() => {
        if (this.barrierRunning === running) this.barrierRunning = undefined;
      });
    });
    this.barrierNext = next;
    return next;
  }

  /** Stops listening and leaves the process registry; the cache serves nothing afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    this.syncUp = false;
    this.clear();
    LIVE.delete(this);
    const stop = this.stopSync;
    this.stopSync = undefined;
    this.syncFn = undefined;
    if (this.peersTimer) clearInterval(this.peersTimer);
    await stop?.().catch(() => {});
  }

  /** Applies one notification payload: `u:<userId>` or `*`; anything else empties the cache (safe side). */
  onNotification(payload: string): void {
    const m = /^u:(\d{1,15})$/.exec(payload);
    const userId = m ? Number(m[1]) : null;
    if (userId !== null) this.invalidateUser(userId);
    else this.clear();
    heard(userId);
  }

  private drop(sessionId: string): void {
    const e = this.entries.get(sessionId);
    if (!e) return;
    this.entries.delete(sessionId);
    const set = this.byUser.get(e.user.id);
    set?.delete(sessionId);
    if (set && set.size === 0) this.byUser.delete(e.user.id);
  }

  /** Keeps the marks bounded: past MAX_MARKS they fold into one flush mark (rejects loads in flight). */
  private compactMarks(): void {
    if (this.userMarks.size + this.sessionMarks.size <= MAX_MARKS) return;
    this.userMarks.clear();
    this.sessionMarks.clear();
    this.flushedAt = this.seq;
  }
}

/**
 * Forgets a user's cached sessions in every cache of this process, at once. Needed wherever a value of
 * the user's row that the session answer shows changes (credits, plan, subscription, nickname, e-mail,
 * password, an account being disabled or deleted), and for the deletion of the user's sessions. Code of
 * the auth module calls it; other modules call `announceUserChanged` (lib/user-changes), which reaches it.
 * Other processes learn it from the `users`/`sessions` triggers when the write commits.
 */
export function forgetUser(userId: number): void {
  for (const c of LIVE) c.invalidateUser(userId);
}

// The writers below auth (the ledger, users) and beside it announce user-row changes instead of calling
// forgetUser (decision 039). Registered when this module loads: every cache of the process lives here.
onUserChanged(forgetUser);

/*
 * Waiting for the echo. A notification reaches every listening process at about the same time, so a
 * writer that has received its OWN notification back knows the others have been sent theirs: the
 * logout answers only then (bounded by a timeout), and a request the browser sends next finds every
 * process already told. `notificationMark()` is taken before the write because PGlite delivers the
 * notification while the statement is still answering.
 */

/** Notifications this process has heard: a running count and the recent ones as [count, userId | null = all]. */
let heardCount = 0;
const recent: [number, number | null][] = [];
const RECENT_MAX = 1024;
const echoWaiters = new Set<() => void>();

function heard(userId: number | null): void {
  heardCount++;
  recent.push([heardCount, userId]);
  if (recent.length > RECENT_MAX) recent.splice(0, recent.length - RECENT_MAX);
  for (const w of [...echoWaiters]) w();
}

/** The count of notifications heard so far: take it before a write whose echo `awaitEcho` waits for. */
export function notificationMark(): number {
  return heardCount;
}

/**
 * Resolves once this process has heard, after `mark`, a notification about each of `userIds` (or one
 * about everything), or after `timeoutMs`; at once when no cache of this process listens (nothing to
 * wait for: TTL 0, or a worker process). Call it after the write has committed, never inside a
 * transaction (the notification comes only at commit).
 * @returns true when the echo was heard, false on timeout or when nothing listens
 */
export async function awaitEcho(userIds: readonly number[], mark: number, timeoutMs = 250): Promise<boolean> {
  if (![...LIVE].some((c) => c.trusted)) return false;
  const done = () => {
    const pending = new Set(userIds);
    for (let i = recent.length - 1; i >= 0 && recent[i]![0] > mark; i--) {
      const u = recent[i]![1];
      if (u === null) return true;
      pending.delete(u);
    }
    return pending.size === 0;
  };
  if (done()) return true;
  return new Promise<boolean>((resolve) => {
    const finish = (ok: boolean) => {
      echoWaiters.delete(check);
      clearTimeout(timer);
      resolve(ok);
    };
    const check = () => {
      if (done()) finish(true);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    echoWaiters.add(check);
  });
}

/** Forgets sessions by id (SHA-256 hex of the cookie token) in every cache of this process, at once. */
export function forgetSessionIds(sessionIds: readonly string[]): void {
  if (sessionIds.length === 0) return;
  for (const c of LIVE) c.invalidateSessions(sessionIds);
}
