import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app';

/** Every argon2 verification the login route makes, counted through the real password module. */
const argon = vi.hoisted(() => ({ verifications: 0 }));
vi.mock('./password', async (importOriginal) => {
  const real = await importOriginal<typeof import('./password')>();
  return {
    ...real,
    verifyPassword: async (hashed: string, password: string) => {
      argon.verifications++;
      return real.verifyPassword(hashed, password);
    },
  };
});

const DEVICE_COOKIE = 'dewy_device';

describe.each(TEST_DATABASES)('login throttling (OWASP: per account+IP, per IP, growing delay, device cookies) on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // A long base delay so a throttled answer cannot expire while a slow machine runs the next step.
    t = await createTestApp(kind, {
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '5',
      LOGIN_MAX_FAILURES_PER_IP: '20',
      LOGIN_MAX_UNTRUSTED_FAILURES_PER_ACCOUNT: '10',
      LOGIN_DELAY_BASE_SECONDS: '60',
      LOGIN_DELAY_MAX_SECONDS: '3600',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  let seq = 0;
  const register = async (password = 'owner-password-1') => {
    const email = `owner${++seq}-${Date.now()}@example.com`;
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { name: 'Owner', email, password } });
    expect(res.statusCode).toBe(201);
    return { email, password };
  };
  const login = (email: string, password: string, ip: string, opts: { cookies?: Record<string, string>; headers?: Record<string, string> } = {}) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email, password }, cookies: opts.cookies, headers: opts.headers });
  /** Moves every delay of the counters naming `needle` into the past, as if the client had waited. */
  const waitOut = (needle: string) =>
    t.ctx.database.db.execute(sql`update rate_limits set next_allowed_at = now() - interval '1 second' where key like ${`%${needle}%`}`);
  const retryAfter = (res: { headers: Record<string, unknown> }) => Number(res.headers['retry-after']);

  it('100 parallel wrong guesses at one account reach argon2 at most 5 times; the owner signs in from another IP', async () => {
    const { email, password } = await register();
    argon.verifications = 0;
    const attacker = '198.51.100.10';
    const res = await Promise.all(Array.from({ length: 100 }, (_, i) => login(email, `wrong-guess-${i}`, attacker)));
    const verified = argon.verifications;
    console.info(`[${kind.name}] password verifications out of 100 parallel wrong guesses: ${verified}`);
    // exactly the budget: never more, and no fewer (a refusal must come from the budget, not from a race)
    expect(verified).toBe(5);
    expect(res.filter((r) => r.statusCode === 401)).toHaveLength(verified);
    const limited = res.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(100 - verified);
    for (const r of limited) {
      expect(r.json().code).toBe('RATE_LIMITED');
      expect(retryAfter(r)).toBeGreaterThanOrEqual(1);
    }

    // The right password from the attacker's address is slowed down too (it cannot be told apart)…
    const fromAttacker = await login(email, password, attacker, { headers: { 'accept-language': 'en' } });
    expect(fromAttacker.statusCode).toBe(429);
    expect(fromAttacker.json()).toMatchObject({ code: 'RATE_LIMITED', message: 'Too many attempts. Please try again later.' });
    expect(fromAttacker.cookies.find((c) => c.name === 'dewy_sid')).toBeUndefined();
    // …but the owner at an address with no recent failures is not locked out.
    const owner = await login(email, password, '203.0.113.20');
    expect(owner.statusCode).toBe(200);
    expect(owner.cookies.find((c) => c.name === 'dewy_sid')).toBeDefined();
  });

  it('five wrong passwords from anyone do not lock the owner out; after the budget the delay grows (Retry-After doubles)', async () => {
    const { email, password } = await register();
    const attacker = '198.51.100.21';
    // When the failure that starts a delay was sent: Retry-After counts down from the delay from then on.
    let delayStartedAt = 0;
    for (let i = 0; i < 5; i++) {
      delayStartedAt = Date.now();
      expect((await login(email, `nope-${i}`, attacker)).statusCode).toBe(401);
    }
    // the owner elsewhere still signs in at once
    expect((await login(email, password, '203.0.113.21')).statusCode).toBe(200);

    // The delay doubles: 60, 120, 240 s. Retry-After is what is left of it when the refusal is answered,
    // so it is the delay less the whole seconds that passed since the failure that started it — read on
    // the test's clock, not assumed (a busy machine may take seconds between two requests) — never more.
    const delays = [60, 120, 240];
    for (let round = 0; round < 3; round++) {
      const refused = await login(email, `nope-again-${round}`, attacker);
      const passed = Math.ceil((Date.now() - delayStartedAt) / 1000);
      expect(refused.statusCode).toBe(429);
      const left = retryAfter(refused);
      expect(left, `round ${round}: ${passed} s passed`).toBeLessThanOrEqual(delays[round]!);
      expect(left, `round ${round}: ${passed} s passed`).toBeGreaterThanOrEqual(delays[round]! - passed);
      await waitOut(attacker); // the attacker waits the delay out…
      delayStartedAt = Date.now();
      expect((await login(email, `nope-after-wait-${round}`, attacker)).statusCode).toBe(401); // …gets one more guess
    }
  });

  it('failures from one IP across many accounts slow that IP down (20 verifications out of 40 parallel), not other IPs', async () => {
    const { email, password } = await register();
    argon.verifications = 0;
    const sprayer = '198.51.100.30';
    const res = await Promise.all(Array.from({ length: 40 }, (_, i) => login(`sprayed${i}@example.com`, 'summer2024!', sprayer)));
    const verified = argon.verifications;
    expect(verified).toBe(20); // the per-IP budget, not a per-account one, stopped the spray
    expect(res.filter((r) => r.statusCode === 429)).toHaveLength(40 - verified);
    // a new account from that address is slowed down as well, but the same account elsewhere is not
    expect((await login(email, password, sprayer)).statusCode).toBe(429);
    expect((await login(email, password, '203.0.113.30')).statusCode).toBe(200);
  });

  it('a distributed guess at one account is slowed by the untrusted-client budget; the device cookie of a past login bypasses it', async () => {
    const { email, password } = await register();
    const first = await login(email, password, '203.0.113.40');
    expect(first.statusCode).toBe(200);
    const device = first.cookies.find((c) => c.name === DEVICE_COOKIE);
    expect(device).toBeDefined();
    expect(device!.httpOnly).toBe(true);

    argon.verifications = 0;
    const res = await Promise.all(Array.from({ length: 30 }, (_, i) => login(email, `botnet-${i}`, `192.0.2.${i + 1}`)));
    expect(argon.verifications).toBe(10);
    expect(res.filter((r) => r.statusCode === 429)).toHaveLength(30 - argon.verifications);

    // a new browser at a clean address waits, the owner's known browser does not
    expect((await login(email, password, '203.0.113.41')).statusCode).toBe(429);
    const known = await login(email, password, '203.0.113.41', { cookies: { [DEVICE_COOKIE]: device!.value } });
    expect(known.statusCode).toBe(200);
  });

  it('behind a shared NAT address under attack, the owner with a device cookie still signs in; forged or foreign cookies do not help', async () => {
    const { email, password } = await register();
    const nat = '198.51.100.50';
    const first = await login(email, password, nat);
    const device = first.cookies.find((c) => c.name === DEVICE_COOKIE)!.value;
    const other = await register();
    const otherDevice = (await login(other.email, other.password, '203.0.113.50')).cookies.find((c) => c.name === DEVICE_COOKIE)!.value;

    // an attacker behind the same NAT guesses at the owner's account and sprays other accounts
    await Promise.all(Array.from({ length: 10 }, (_, i) => login(email, `guess-${i}`, nat)));
    await Promise.all(Array.from({ length: 30 }, (_, i) => login(`victim${i}@example.com`, 'password1', nat)));

    expect((await login(email, password, nat)).statusCode).toBe(429);
    const forged = `${device.slice(0, -4)}AAAA`;
    expect((await login(email, password, nat, { cookies: { [DEVICE_COOKIE]: forged } })).statusCode).toBe(429);
    expect((await login(email, password, nat, { cookies: { [DEVICE_COOKIE]: otherDevice } })).statusCode).toBe(429);
    const owner = await login(email, password, nat, { cookies: { [DEVICE_COOKIE]: device } });
    expect(owner.statusCode).toBe(200);
    expect(owner.cookies.find((c) => c.name === 'dewy_sid')).toBeDefined();
  });

  it('a device cookie has its own budget: wrong passwords through it are slowed down too', async () => {
    const { email, password } = await register();
    const device = (await login(email, password, '203.0.113.60')).cookies.find((c) => c.name === DEVICE_COOKIE)!.value;
    argon.verifications = 0;
    const res = await Promise.all(Array.from({ length: 20 }, (_, i) => login(email, `stolen-cookie-${i}`, '203.0.113.61', { cookies: { [DEVICE_COOKIE]: device } })));
    expect(argon.verifications).toBe(5);
    expect(res.filter((r) => r.statusCode === 429)).toHaveLength(20 - argon.verifications);
  });
});
