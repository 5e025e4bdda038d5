import { afterEach, describe, expect, it } from 'vitest';
import type { UserRow } from '../../db/schema';
import { announceUserChanged, onUserChanged } from '../../lib/user-changes';
import { awaitEcho, forgetSessionIds, forgetUser, notificationMark, SessionCache, type CachedSession } from './session-cache';

const user = (id: number, over: Partial<UserRow> = {}): UserRow => ({
  id,
  email: `u${id}@example.com`,
  emailNormalized: `u${id}@example.com`,
  nickname: `U${id}`,
  passwordHash: 'x',
  plan: 'free',
  oneTimeCredits: 300,
  subscriptionCredits: 0,
  bonusCredits: 0,
  creditDebt: 0,
  cancelledAt: null,
  subscriptionEndDate: null,
  nextRenewalDate: null,
  subscriptionId: null,
  emailVerifiedAt: new Date(0),
  locale: 'ko',
  deletionRequestedAt: null,
  deletionDueAt: null,
  deletedAt: null,
  lastLoginAt: new Date(0),
  dormancyNoticeAt: null,
  dormancyNoticeSentAt: null,
  dormantAt: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...over,
});
const entry = (sessionId: string, u: UserRow): CachedSession => ({ sessionId, user: u, expiresAt: Date.now() + 60_000, lastSeenAt: Date.now() });

/** A listen() that is up at once and lets the test deliver notifications and connection changes. */
function fakeDatabase() {
  let deliver: ((p: string) => void) | undefined;
  let state: ((up: boolean) => void) | undefined;
  let stopped = false;
  return {
    async listen(_channel: string, onPayload: (p: string) => void, opts?: { onState?: (up: boolean) => void }) {
      deliver = onPayload;
      state = opts?.onState;
      return async () => {
        stopped = true;
      };
    },
    notify: (p: string) => deliver?.(p),
    setUp: (up: boolean) => state?.(up),
    get stopped() {
      return stopped;
    },
  };
}

const caches: SessionCache[] = [];
async function started(opts: { ttlMs: number; maxEntries?: number; now?: () => number }) {
  const c = new SessionCache(opts);
  caches.push(c);
  const db = fakeDatabase();
  await c.startSync(db);
  return { c, db };
}
afterEach(async () => {
  for (const c of caches.splice(0)) await c.close();
});

describe('SessionCache', () => {
  it('serves nothing before it listens for invalidations, nor with a TTL of 0', async () => {
    const c = new SessionCache({ ttlMs: 5000 });
    caches.push(c);
    expect(c.trusted).toBe(false);
    expect(c.store(c.begin(), entry('s1', user(1)))).toBe(false);
    expect(c.get('s1')).toBeUndefined();
    await c.startSync(fakeDatabase());
    expect(c.trusted).toBe(true);

    const off = await started({ ttlMs: 0 });
    expect(off.c.trusted).toBe(false);
    expect(off.c.store(off.c.begin(), entry('s1', user(1)))).toBe(false);
  });

  it('serves an entry until its TTL has passed, as a frozen copy', async () => {
    let now = 1_000;
    const { c } = await started({ ttlMs: 5000, now: () => now });
    const u = user(1);
    expect(c.store(c.begin(), entry('s1', u))).toBe(true);
    const hit = c.get('s1')!;
    expect(hit.user).toEqual(u);
    expect(Object.isFrozen(hit.user)).toBe(true);
    now += 4999;
    expect(c.get('s1')).toBeDefined();
    now += 1;
    expect(c.get('s1')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('forgets every session of a user, or single sessions, and nothing else', async () => {
    const { c } = await started({ ttlMs: 5000 });
    c.store(c.begin(), entry('a1', user(1)));
    c.store(c.begin(), entry('a2', user(1)));
    c.store(c.begin(), entry('b1', user(2)));
    c.invalidateUser(1);
    expect(c.get('a1')).toBeUndefined();
    expect(c.get('a2')).toBeUndefined();
    expect(c.get('b1')).toBeDefined();
    c.store(c.begin(), entry('b2', user(2)));
    c.invalidateSessions(['b1']);
    expect(c.get('b1')).toBeUndefined();
    expect(c.get('b2')).toBeDefined();
  });

  it('does not store a load that overlapped an invalidation of its user, its session or a flush', async () => {
    const { c } = await started({ ttlMs: 5000 });
    let t = c.begin();
    c.invalidateUser(1);
    expect(c.store(t, entry('s1', user(1)))).toBe(false);
    expect(c.store(t, entry('s2', user(2)))).toBe(true); // another user's load is unaffected
    t = c.begin();
    c.invalidateSessions(['s3']);
    expect(c.store(t, entry('s3', user(3)))).toBe(false);
    t = c.begin();
    c.clear();
    expect(c.store(t, entry('s4', user(4)))).toBe(false);
    // A load started after the invalidation is stored.
    expect(c.store(c.begin(), entry('s1', user(1)))).toBe(true);
  });

  it('keeps refusing overlapped loads after its invalidation marks are compacted', async () => {
    const { c } = await started({ ttlMs: 5000 });
    const t = c.begin();
    for (let i = 0; i < 5000; i++) c.invalidateUser(1000 + i);
    expect(c.store(t, entry('s1', user(1)))).toBe(false);
    expect(c.store(c.begin(), entry('s1', user(1)))).toBe(true);
  });

  it('applies notifications: u:<id> forgets that user, anything else empties the cache', async () => {
    const { c, db } = await started({ ttlMs: 5000 });
    c.store(c.begin(), entry('a', user(1)));
    c.store(c.begin(), entry('b', user(2)));
    db.notify('u:1');
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')).toBeDefined();
    db.notify('garbage');
    expect(c.size).toBe(0);
  });

  it('serves nothing while its LISTEN connection is down and starts empty when it is back', async () => {
    const { c, db } = await started({ ttlMs: 5000 });
    c.store(c.begin(), entry('a', user(1)));
    const t = c.begin();
    db.setUp(false);
    expect(c.trusted).toBe(false);
    expect(c.get('a')).toBeUndefined();
    expect(c.store(c.begin(), entry('b', user(2)))).toBe(false);
    db.setUp(true);
    expect(c.trusted).toBe(true);
    expect(c.size).toBe(0);
    expect(c.store(t, entry('a', user(1)))).toBe(false); // a load from before the drop is refused
  });

  it('drops the oldest entry past maxEntries', async () => {
    const { c } = await started({ ttlMs: 5000, maxEntries: 2 });
    c.store(c.begin(), entry('a', user(1)));
    c.store(c.begin(), entry('b', user(2)));
    c.store(c.begin(), entry('c', user(3)));
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')).toBeDefined();
    expect(c.get('c')).toBeDefined();
  });

  it('shares one load between concurrent misses; an invalidation makes the next caller load again', async () => {
    const { c } = await started({ ttlMs: 5000 });
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const load = async () => {
      loads++;
      await gate;
      return loads;
    };
    const first = Array.from({ length: 10 }, () => c.coalesce('s', load));
    expect(loads).toBe(1);
    c.invalidateSessions(['s']);
    const later = c.coalesce('s', load);
    expect(loads).toBe(2);
    release();
    expect(new Set(await Promise.all(first)).size).toBe(1);
    await later;
  });

  it('forgetUser and forgetSessionIds reach every live cache of the process; a closed cache leaves', async () => {
    const one = await started({ ttlMs: 5000 });
    const two = await started({ ttlMs: 5000 });
    for (const { c } of [one, two]) {
      c.store(c.begin(), entry('a', user(7)));
      c.store(c.begin(), entry('b', user(8)));
    }
    forgetUser(7);
    forgetSessionIds(['b']);
    for (const { c } of [one, two]) expect(c.size).toBe(0);
    await one.c.close();
    expect(one.db.stopped).toBe(true);
    expect(one.c.trusted).toBe(false);
  });

  it('a user-row change announced through lib/user-changes (the ledger, billing, users: decision 039) empties every live cache at once', async () => {
    const one = await started({ ttlMs: 5000 });
    const two = await started({ ttlMs: 5000 });
    for (const { c } of [one, two]) {
      c.store(c.begin(), entry('a', user(17)));
      c.store(c.begin(), entry('b', user(18)));
    }
    const heard: number[] = [];
    const stop = onUserChanged((id) => heard.push(id));
    onUserChanged(() => {
      throw new Error('a broken listener');
    });
    announceUserChanged(17);
    stop();
    announceUserChanged(18);
    // Both caches dropped both users; a throwing listener did not stop the others; a removed one hears no more.
    for (const { c } of [one, two]) {
      expect(c.get('a')).toBeUndefined();
      expect(c.get('b')).toBeUndefined();
      expect(c.size).toBe(0);
    }
    expect(heard).toEqual([17]);
    // A load that started before the announcement is not stored afterwards (the mark is the same as forgetUser's).
    const ticket = one.c.begin();
    announceUserChanged(19);
    expect(one.c.store(ticket, entry('c', user(19)))).toBe(false);
  });

  it('awaitEcho: waits for a notification about each user heard after the mark, or times out', async () => {
    expect(await awaitEcho([1], notificationMark(), 50)).toBe(false); // nothing listens in this process
    const { db } = await started({ ttlMs: 5000 });
    // heard during the write (PGlite), before the wait starts
    let mark = notificationMark();
    db.notify('u:5');
    expect(await awaitEcho([5], mark, 1000)).toBe(true);
    // heard later (PostgreSQL's LISTEN connection); both users needed
    mark = notificationMark();
    const waiting = awaitEcho([6, 7], mark, 60_000);
    db.notify('u:6');
    setTimeout(() => db.notify('u:7'), 20);
    expect(await waiting).toBe(true); // heard (true), not given up at the deadline (false)
    // one heard BEFORE the mark does not count
    db.notify('u:8');
    mark = notificationMark();
    expect(await awaitEcho([8], mark, 60)).toBe(false);
    // a flush notification answers for everyone
    mark = notificationMark();
    db.notify('*');
    expect(await awaitEcho([9, 10], mark, 1000)).toBe(true);
  });

  it('fresh(): one round trip at a time, and a caller never rides one sent before it arrived', async () => {
    const c = new SessionCache({ ttlMs: 5000 });
    caches.push(c);
    const sent: { resolve(): void; reject(e: Error): void }[] = [];
    const sync = () => new Promise<void>((resolve, reject) => sent.push({ resolve, reject }));
    await c.startSync({ listen: async () => Object.assign(async () => {}, { sync }) });
    const first = Array.from({ length: 10 }, () => c.fresh());
    await Promise.resolve();
    expect(sent).toHaveLength(1); // ten callers, one round trip
    const later = Array.from({ length: 5 }, () => c.fresh()); // arrived while it is in flight
    await Promise.resolve();
    expect(sent).toHaveLength(1); // they wait for the NEXT one, sent only after the first returns
    sent[0]!.resolve();
    await Promise.all(first);
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toHaveLength(2);
    let laterDone = false;
    void Promise.all(later).then(
      () => (laterDone = true),
      () => (laterDone = true),
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(laterDone).toBe(false);
    sent[1]!.reject(new Error('connection lost'));
    await expect(later[0]).rejects.toThrow('connection lost');
    // PGlite (no sync): nothing to wait for
    const { c: lite } = await started({ ttlMs: 5000 });
    await expect(lite.fresh()).resolves.toBeUndefined();
  });
});

