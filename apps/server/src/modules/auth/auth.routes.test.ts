import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, signUpAndLogin, verifyFromOutbox, type TestApp } from '../../../test/helpers/test-app';
import { creditLedger, rateLimits, sessions, users } from '../../db/schema';
import { purgeRateLimits } from '../../lib/rate-limit';

describe.each(TEST_DATABASES)('accounts and sessions on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // Past the budget the wait now grows from LOGIN_DELAY_BASE_SECONDS (ADR 008); a long one keeps the
    // "refused right after" assertion below independent of how fast the machine is.
    t = await createTestApp(kind, { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_IP: '1000', LOGIN_DELAY_BASE_SECONDS: '60' });
  });
  afterAll(async () => {
    await t?.close();
  });
  const userCount = async () => (await t.ctx.database.db.select({ n: count() }).from(users))[0]!.n;

  it('registers, logs in with a fresh session id each time, checks and logs out', async () => {
    const { app } = t;
    const email = 'First.User@Example.com';
    const reg = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { name: 'First', email, password: 'pass-word-1' } });
    expect(reg.statusCode).toBe(201);
    expect(reg.json()).toEqual({ success: true }); // the same answer whether or not the address had an account (decision 031)
    expect(reg.cookies.find((c) => c.name === 'dewy_sid')).toBeUndefined(); // sign-up leads to login
    const unverified = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'pass-word-1' } });
    expect(unverified.json()).toMatchObject({ id: 1, isAdmin: true, credits: 0, email_verified: false }); // the first account is the administrator; the welcome grant waits for the e-mail verification (decision 020)
    expect((await verifyFromOutbox(app, email)).welcomeCredits).toBe(300);

    const login1 = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'first.user@example.com', password: 'pass-word-1' } });
    expect(login1.statusCode).toBe(200);
    expect(login1.json()).toMatchObject({ id: 1, email, nickname: 'First', credits: 300, plan: 'free', email_verified: true });
    const c1 = login1.cookies.find((c) => c.name === 'dewy_sid')!;
    expect(c1.httpOnly).toBe(true);
    expect(c1.sameSite).toBe('Lax');
    expect(c1.secure).toBeFalsy(); // plain http here; Secure over https
    const login2 = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'pass-word-1' }, cookies: { dewy_sid: c1.value } });
    const c2 = login2.cookies.find((c) => c.name === 'dewy_sid')!;
    expect(c2.value).not.toBe(c1.value);
    // the old session of this browser was dropped at the new login
    expect((await app.inject({ url: '/api/auth/check', cookies: { dewy_sid: c1.value } })).statusCode).toBe(401);

    const check = await app.inject({ url: '/api/auth/check', cookies: { dewy_sid: c2.value } });
    expect(check.json()).toMatchObject({ isAuthenticated: true, user: { id: 1, credits: 300 } });
    const out = await app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { dewy_sid: c2.value } });
    expect(out.statusCode).toBe(200);
    const after = await app.inject({ url: '/api/auth/check', cookies: { dewy_sid: c2.value } });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBeTruthy();
    expect((await app.inject({ url: '/api/auth/check' })).json()).toEqual({ isAuthenticated: false, user: null });
  });

  it('an expired session (idle or absolute) answers 401 with a message in the caller language', async () => {
    const { app, ctx } = t;
    const { cookie, user } = await signUpAndLogin(app);
    await ctx.database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id));
    const res = await app.inject({ url: '/api/auth/check', headers: { cookie, 'accept-language': 'en-US,en;q=0.9' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'SESSION_EXPIRED', message: 'Login has expired. Please log in again.' });
    const { cookie: c2, user: u2 } = await signUpAndLogin(app);
    await ctx.database.db.execute(sql`update sessions set last_seen_at = now() - interval '30 days' where user_id = ${u2.id}`);
    const res2 = await app.inject({ url: '/api/auth/check', headers: { cookie: `${c2}; locale=ko` } });
    expect(res2.statusCode).toBe(401);
    expect(res2.json().message).toBe('로그인이 만료되었습니다. 다시 로그인해주세요.');
  });

  it('a duplicate e-mail in another case creates nothing, and the answer does not say so (decision 031)', async () => {
    const { app } = t;
    await app.inject({ method: 'POST', url: '/api/auth/register', payload: { name: 'A', email: 'dup@example.com', password: 'password-1' } });
    const before = await userCount();
    const res = await app.inject({ method: 'POST', url: '/api/auth/register', headers: { 'accept-language': 'ko-KR' }, payload: { name: 'B', email: 'DUP@Example.COM', password: 'password-2' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true });
    expect(await userCount()).toBe(before);
    expect((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'dup@example.com', password: 'password-2' } })).statusCode).toBe(401);
  });

  it('bad input gets a clear error and writes nothing', async () => {
    const { app, ctx } = t;
    const before = await userCount();
    const ledgerBefore = (await ctx.database.db.select({ n: count() }).from(creditLedger))[0]!.n;
    const cases = [
      { payload: '{"name":"x","email":', headers: { 'content-type': 'application/json' }, code: 'MALFORMED_JSON' },
      { payload: { email: 'a@b.co', password: 'password-1' }, code: 'VALIDATION_FAILED' },
      { payload: { name: 'x', email: `${'a'.repeat(250)}@b.co`, password: 'password-1' }, code: 'VALIDATION_FAILED' },
      { payload: { name: 'x', email: 'a@b.co', password: 'p'.repeat(129) }, code: 'VALIDATION_FAILED' },
      { payload: { name: 'x', email: 'not-an-email', password: 'password-1' }, code: 'VALIDATION_FAILED' },
    ];
    for (const c of cases) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/register', headers: { 'accept-language': 'en', ...(c.headers ?? {}) }, payload: c.payload as never });
      expect(res.statusCode, JSON.stringify(c.payload)).toBe(400);
      expect(res.json().code).toBe(c.code);
      expect(res.json().message).toMatch(/[A-Za-z]/);
    }
    const ko = await app.inject({ method: 'POST', url: '/api/auth/register', headers: { 'accept-language': 'ko' }, payload: {} });
    expect(ko.json().message).toBe('입력값을 확인해주세요.');
    expect(await userCount()).toBe(before);
    expect((await ctx.database.db.select({ n: count() }).from(creditLedger))[0]!.n).toBe(ledgerBefore);
  });

  it('a wrong password is refused, and repeated failures are rate-limited per account', async () => {
    const { app } = t;
    const { email, password } = await signUpAndLogin(app);
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'wrong-password' } });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('INVALID_CREDENTIALS');
      expect(res.cookies.find((c) => c.name === 'dewy_sid')).toBeUndefined();
    }
    const limited = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
  });

  it('rate-limit counters past their reset and delay are purged; live ones stay', async () => {
    const db = t.ctx.database.db;
    const past = new Date(Date.now() - 3_600_000);
    const future = new Date(Date.now() + 3_600_000);
    await db.insert(rateLimits).values([
      { key: 'login:acct_ip:old@example.com|10.0.0.1', hits: 3, resetAt: past, nextAllowedAt: past },
      { key: 'login:acct_ip:new@example.com|10.0.0.1', hits: 3, resetAt: future, nextAllowedAt: past },
      { key: 'login:ip:10.0.0.9', hits: 30, resetAt: past, nextAllowedAt: future },
    ]);
    expect(await purgeRateLimits(db)).toBeGreaterThanOrEqual(1);
    const left = (await db.select().from(rateLimits)).map((r) => r.key);
    expect(left).toContain('login:acct_ip:new@example.com|10.0.0.1');
    expect(left).toContain('login:ip:10.0.0.9');
    expect(left).not.toContain('login:acct_ip:old@example.com|10.0.0.1');
  });

  it('state-changing requests from a foreign Origin are refused', async () => {
    const { app } = t;
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { origin: 'https://evil.example' },
      payload: { name: 'x', email: 'evil@example.com', password: 'password-1' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FOREIGN_ORIGIN');
    const own = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
      payload: { name: 'x', email: 'own@example.com', password: 'password-1' },
    });
    expect(own.statusCode).toBe(201);
  });

  it('serves feature flags and the OpenAPI document', async () => {
    const { app } = t;
    expect((await app.inject({ url: '/api/feature/flags' })).json()).toEqual({ imageGenerationEnabled: false, paymentsEnabled: true, maintenance: false });
    const doc = await app.inject({ url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    expect(Object.keys(doc.json().paths)).toEqual(expect.arrayContaining(['/api/auth/login', '/api/auth/register', '/api/runpod-upscale']));
  });
});
