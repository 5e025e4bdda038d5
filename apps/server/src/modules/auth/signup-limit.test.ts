import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, like } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, verifyFromOutbox, type TestApp } from '../../../test/helpers/test-app';
import { buildApp } from '../../app';
import { creditLedger, users } from '../../db/schema';

describe.each(TEST_DATABASES)('sign-up rate limits (per IP, per e-mail domain, in the database) on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { SIGNUP_MAX_PER_IP: '5', SIGNUP_IP_WINDOW_MINUTES: '60', SIGNUP_MAX_PER_DOMAIN: '8', SIGNUP_DOMAIN_WINDOW_MINUTES: '10' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const register = (email: string, ip: string, app = t.app, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: ip, headers, payload: { name: 'Farmer', email, password: 'farm-password-1' } });
  const usersOf = async (domain: string) => (await t.ctx.database.db.select({ n: count() }).from(users).where(like(users.emailNormalized, `%@${domain}`)))[0]!.n;
  const welcomeGrantsOf = async (domain: string) =>
    (
      await t.ctx.database.db
        .select({ n: count() })
        .from(creditLedger)
        .innerJoin(users, eq(users.id, creditLedger.userId))
        .where(and(like(users.emailNormalized, `%@${domain}`), eq(creditLedger.reasonCode, 'welcome')))
    )[0]!.n;

  it('60 parallel sign-ups from one IP: at most 5 accounts and 5 welcome grants; the rest get 429 in the caller language; another IP still registers', async () => {
    const farm = '198.51.100.70';
    const res = await Promise.all(Array.from({ length: 60 }, (_, i) => register(`farm${i}@farm-a.example`, farm, t.app, { 'accept-language': i % 2 ? 'en' : 'ko' })));
    const created = res.filter((r) => r.statusCode === 201).length;
    console.info(`[${kind.name}] sign-ups allowed out of 60 parallel from one IP: ${created}`);
    expect(created).toBe(5);
    const refused = res.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(55);
    for (const r of refused) {
      expect(r.json().code).toBe('RATE_LIMITED');
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(refused.map((r) => r.json().message)).toEqual(
      expect.arrayContaining(['Too many attempts. Please try again later.', '시도가 너무 많습니다. 잠시 후 다시 시도해주세요.']),
    );
    expect(await usersOf('farm-a.example')).toBe(5);
    // The welcome grants wait for verification (decision 020): none yet, then one per verified account.
    expect(await welcomeGrantsOf('farm-a.example')).toBe(0);
    for (const [i, r] of res.entries()) if (r.statusCode === 201) await verifyFromOutbox(t.app, `farm${i}@farm-a.example`);
    expect(await welcomeGrantsOf('farm-a.example')).toBe(5);

    expect((await register('neighbour@farm-b.example', '203.0.113.70')).statusCode).toBe(201);
  });

  it('the limit holds across API processes sharing the database', async () => {
    const second = await buildApp(t.ctx, { logger: false });
    try {
      const ip = '198.51.100.71';
      const res = await Promise.all(Array.from({ length: 20 }, (_, i) => register(`twin${i}@farm-c.example`, ip, i % 2 ? second : t.app)));
      expect(res.filter((r) => r.statusCode === 201)).toHaveLength(5);
      expect(await usersOf('farm-c.example')).toBe(5);
    } finally {
      await second.close();
    }
  });

  it('a burst at one e-mail domain from many IPs is capped per domain; other domains are not', async () => {
    const res = [];
    for (let i = 0; i < 12; i++) res.push(await register(`burst${i}@farm-d.example`, `192.0.2.${100 + i}`));
    expect(res.filter((r) => r.statusCode === 201)).toHaveLength(8);
    expect(res.slice(8).every((r) => r.statusCode === 429 && r.json().code === 'RATE_LIMITED')).toBe(true);
    expect(await usersOf('farm-d.example')).toBe(8);
    expect((await register('someone@farm-e.example', '192.0.2.200')).statusCode).toBe(201);
  });
});
