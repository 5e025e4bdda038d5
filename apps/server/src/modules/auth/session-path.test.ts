import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { waitFor } from '../../../test/helpers/wait';
import { sessions, users } from '../../db/schema';
import { grant, spend } from '../credits';
import { deleteSessionsOfUser, purgeExpiredSessions, sessionIdFor } from './session.service';

/**
 * The session path with its cache (decision 026), on both databases: answers come from memory after the
 * first, and every change the answer depends on is seen by the very next request.
 */
describe.each(TEST_DATABASES)('the cached session path on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // A long TTL: any stale answer below would be served for a minute, not hidden by expiry.
    t = await createTestApp(kind, { SESSION_CACHE_TTL_MS: '60000' });
  });
  afterAll(async () => {
    await t?.close();
  });
  const check = (cookie: string) => t.app.inject({ url: '/api/auth/check', headers: { cookie } });

  it('answers a repeated auth/check from memory, the same answer as from the database', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    expect(t.ctx.sessionCache.trusted).toBe(true);
    expect(t.ctx.sessionCache.needsFresh).toBe(false); // alone on its database: no round trip per hit
    const select = vi.spyOn(t.ctx.database.db, 'select');
    try {
      const first = await check(cookie);
      expect(first.statusCode).toBe(200);
      expect(select).toHaveBeenCalledTimes(1);
      const again = await Promise.all(Array.from({ length: 20 }, () => check(cookie)));
      expect(select).toHaveBeenCalledTimes(1); // no query for the next 20
      for (const r of again) expect(r.json()).toEqual(first.json());
      expect(first.json()).toMatchObject({ isAuthenticated: true, user: { id: user.id, credits: 300, balance: 300, one_time_credits: 300 } });
    } finally {
      select.mockRestore();
    }
  });

  it('a logout is seen at once: the old cookie answers 401 right after', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    expect((await check(cookie)).statusCode).toBe(200);
    expect((await check(cookie)).statusCode).toBe(200); // cached
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    const after = await check(cookie);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('SESSION_EXPIRED');
    // …also on a route behind the access hook
    expect((await t.app.inject({ url: '/api/credits/history', headers: { cookie } })).statusCode).toBe(401);
  });

  it('deleting every session of a user ends all its browsers at once', async () => {
    const a = await signUpAndLogin(t.app);
    const b = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: a.email, password: a.password } });
    const cookieB = `dewy_sid=${b.cookies.find((c) => c.name === 'dewy_sid')!.value}`;
    for (const c of [a.cookie, cookieB]) expect((await check(c)).statusCode).toBe(200);
    await deleteSessionsOfUser(t.ctx.database.db, a.user.id);
    for (const c of [a.cookie, cookieB]) expect((await check(c)).statusCode).toBe(401);
  });

  it('spending and granting credits show the new balance on the very next auth/check', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    expect((await check(cookie)).json().user.credits).toBe(300);
    await spend(t.ctx.database.db, { userId: user.id, amount: 40, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `sp-${user.id}` });
    expect((await check(cookie)).json().user).toMatchObject({ credits: 260, balance: 260, one_time_credits: 260 });
    await grant(t.ctx.database.db, { userId: user.id, amount: 15, bucket: 'bonus', reason: { code: 'affiliate_reward' }, idempotencyKey: `gr-${user.id}` });
    expect((await check(cookie)).json().user).toMatchObject({ credits: 275, bonus_credits: 15 });
    // a nickname change through the API, too
    const patched = await t.app.inject({ method: 'PATCH', url: '/api/users/me', headers: { cookie }, payload: { nickname: 'Renamed' } });
    expect(patched.statusCode).toBe(200);
    expect((await check(cookie)).json().user.nickname).toBe('Renamed');
  });

  it('a write that bypasses the services is still seen: the users trigger notifies this process', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    expect((await check(cookie)).json().user.plan).toBe('free');
    await t.ctx.database.db.execute(sql`update users set plan = 'deluxe' where id = ${user.id}`);
    // PGlite delivers the notification with the statement's answer; PostgreSQL through the LISTEN connection.
    const seen = await waitFor(async () => ((await check(cookie)).json().user.plan === 'deluxe' ? true : undefined), 2000, 5);
    expect(seen).toBe(true);
    // the same for a session row ended by SQL
    await t.ctx.database.db.execute(sql`delete from sessions where user_id = ${user.id}`);
    expect(await waitFor(async () => ((await check(cookie)).statusCode === 401 ? true : undefined), 2000, 5)).toBe(true);
  });

  it('50 parallel checks racing 10 parallel spends: afterwards every check shows the final balance', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    await check(cookie);
    const checks = Array.from({ length: 50 }, () => check(cookie));
    const spends = Array.from({ length: 10 }, (_, i) => spend(t.ctx.database.db, { userId: user.id, amount: 7, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `race-${user.id}-${i}` }));
    const done = await Promise.all([...checks, ...spends]);
    for (const r of done.slice(0, 50) as Awaited<ReturnType<typeof check>>[]) expect(r.statusCode).toBe(200);
    const after = await Promise.all(Array.from({ length: 20 }, () => check(cookie)));
    for (const r of after) expect(r.json().user.credits).toBe(300 - 70);
  });

  it('50 parallel checks racing a logout: every check after the logout answers 401', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    await check(cookie);
    const during = Array.from({ length: 50 }, () => check(cookie));
    const out = t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    await Promise.all([...during, out]);
    const after = await Promise.all(Array.from({ length: 20 }, () => check(cookie)));
    for (const r of after) expect(r.statusCode).toBe(401);
  });

  it('an expired session is never served from memory, and the purge forgets what it deletes', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    expect((await check(cookie)).statusCode).toBe(200);
    // Expire it without any trigger or service knowing (the cache checks both expiries by the clock).
    const id = sessionIdFor(cookie.slice('dewy_sid='.length));
    const entry = t.ctx.sessionCache.get(id);
    expect(entry).toBeDefined();
    (entry as { expiresAt: number }).expiresAt = Date.now() - 1;
    expect((await check(cookie)).statusCode).toBe(200); // the database still holds it valid: re-read, valid
    await t.ctx.database.db.update(sessions).set({ lastSeenAt: new Date(Date.now() - 8 * 86400_000) }).where(eq(sessions.userId, user.id));
    await purgeExpiredSessions(t.ctx.database.db, t.ctx.config.session);
    expect((await check(cookie)).statusCode).toBe(401);
    expect((await t.ctx.database.db.select().from(users).where(eq(users.id, user.id))).length).toBe(1);
  });
});
