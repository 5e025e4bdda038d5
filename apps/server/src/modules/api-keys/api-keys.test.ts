import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { API_KEY_LIMITS, ERROR_MESSAGES } from '@dewy/contracts';
import { apiKeys, users } from '../../db/schema';
import { openDatabase } from '../../db/client';
import { createMigratedPostgresDatabase, TEST_DATABASES, type TestDatabaseKind } from '../../../test/helpers/databases';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { authenticateApiKey } from './api-keys.service';

/** API keys (decision 040 §1) on each database: My Page's routes, the stored hash, and who a secret names. */
describe.each(TEST_DATABASES)('API keys on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (cookie: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/account/api-keys', headers: { cookie, ...headers }, payload: payload as object });
  const list = (cookie: string) => t.app.inject({ url: '/api/account/api-keys', headers: { cookie } });
  const revoke = (cookie: string, id: number | string) => t.app.inject({ method: 'DELETE', url: `/api/account/api-keys/${id}`, headers: { cookie } });

  it('creates a key whose secret is answered once and stored only as its SHA-256; the list shows name and prefix, never the secret', async () => {
    const u = await signUpAndLogin(t.app);
    const res = await create(u.cookie, { name: '  Studio batch  ', expiresInDays: 30 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { key, secret } = res.json() as { key: { id: number; name: string; prefix: string; expiresAt: string; state: string }; secret: string };
    expect(secret).toMatch(/^dewy_sk_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatchObject({ name: 'Studio batch', prefix: secret.slice(0, 16), state: 'active' });
    expect(Date.parse(key.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    const [row] = await t.ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.secretHash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret.slice(16));

    const listed = list(u.cookie);
    const body = (await listed).body;
    expect(body).not.toContain(secret.slice(16));
    expect((await listed).json().keys).toEqual([expect.objectContaining({ id: key.id, name: 'Studio batch', prefix: secret.slice(0, 16), lastUsedAt: null, revokedAt: null, state: 'active' })]);
  });

  it('names the caller behind a secret while the key is live, and no one once it is revoked, expired, or its account cannot use it', async () => {
    const u = await signUpAndLogin(t.app);
    const { key, secret } = (await create(u.cookie, { name: 'ci' })).json() as { key: { id: number }; secret: string };
    const now = new Date();
    expect(await authenticateApiKey(t.ctx.database.db, secret, now)).toMatchObject({ apiKeyId: key.id, user: { id: u.user.id } });
    // the use is noted, once a minute at most
    const used = (await t.ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]!.lastUsedAt!;
    expect(used.getTime()).toBe(now.getTime());
    await authenticateApiKey(t.ctx.database.db, secret, new Date(now.getTime() + 30_000));
    expect((await t.ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]!.lastUsedAt!.getTime()).toBe(now.getTime());

    // malformed, unknown, or one character off
    for (const bad of ['', 'dewy_sk_', secret.slice(0, -1), `${secret}x`, secret.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), `Bearer ${secret}`, secret.toUpperCase()]) {
      expect(await authenticateApiKey(t.ctx.database.db, bad, now), bad).toBeNull();
    }

    // the account must be verified and not on its way out
    await t.ctx.database.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, u.user.id));
    expect(await authenticateApiKey(t.ctx.database.db, secret, now)).toBeNull();
    await t.ctx.database.db.update(users).set({ emailVerifiedAt: now, deletionRequestedAt: now }).where(eq(users.id, u.user.id));
    expect(await authenticateApiKey(t.ctx.database.db, secret, now)).toBeNull();
    await t.ctx.database.db.update(users).set({ deletionRequestedAt: null }).where(eq(users.id, u.user.id));
    expect(await authenticateApiKey(t.ctx.database.db, secret, now)).not.toBeNull();

    // revoked: at once, and for good
    const revoked = await revoke(u.cookie, key.id);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().key).toMatchObject({ id: key.id, state: 'revoked' });
    expect(await authenticateApiKey(t.ctx.database.db, secret, new Date())).toBeNull();
    const again = await revoke(u.cookie, key.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().key.revokedAt).toBe(revoked.json().key.revokedAt);
  });

  it('an expiry ends the key on its date (the clock passed in)', async () => {
    const u = await signUpAndLogin(t.app);
    const { key, secret } = (await create(u.cookie, { name: 'short', expiresInDays: 1 })).json() as { key: { id: number; expiresAt: string }; secret: string };
    const end = Date.parse(key.expiresAt);
    expect(await authenticateApiKey(t.ctx.database.db, secret, new Date(end - 1000))).not.toBeNull();
    expect(await authenticateApiKey(t.ctx.database.db, secret, new Date(end))).toBeNull();
  });

  it('another account\'s key is 404 to revoke and absent from the list; a signed-out or unverified caller is refused; nothing changes', async () => {
    const owner = await signUpAndLogin(t.app);
    const other = await signUpAndLogin(t.app);
    const { key, secret } = (await create(owner.cookie, { name: 'mine' })).json() as { key: { id: number }; secret: string };
    const res = await revoke(other.cookie, key.id);
    expect(res.statusCode).toBe(404);
    expect((await list(other.cookie)).json().keys).toEqual([]);
    expect((await revoke(other.cookie, 'abc')).statusCode).toBe(400);
    expect((await revoke(other.cookie, '99999999999')).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/account/api-keys' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/account/api-keys', payload: { name: 'x' } })).statusCode).toBe(401);
    const unverified = await signUpAndLogin(t.app, undefined, undefined, { verify: false });
    const refused = await create(unverified.cookie, { name: 'x' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('EMAIL_NOT_VERIFIED');
    // the key still works for its owner
    expect(await authenticateApiKey(t.ctx.database.db, secret)).toMatchObject({ apiKeyId: key.id });
  });

  it('refuses a bad name or expiry with the field named, in the caller\'s language, and stores nothing', async () => {
    const u = await signUpAndLogin(t.app);
    for (const payload of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(API_KEY_LIMITS.nameMax + 1) }, { name: 'a\u0000b' }, { name: 'ok', expiresInDays: 0 }, { name: 'ok', expiresInDays: 366 }, { name: 'ok', expiresInDays: 1.5 }, { name: 'ok', extra: true }]) {
      const res = await create(u.cookie, payload, { 'accept-language': 'ko' });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await list(u.cookie)).json().keys).toEqual([]);
    const huge = await create(u.cookie, { name: 'x'.repeat(2_000_000) });
    expect([400, 413]).toContain(huge.statusCode);
    expect((await list(u.cookie)).json().keys).toEqual([]);
  });

  it(`holds at most ${API_KEY_LIMITS.maxLiveKeys} live keys under 25 parallel creations; a revoked key frees a place`, async () => {
    const u = await signUpAndLogin(t.app);
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => create(u.cookie, { name: `k${i}` }, { 'accept-language': 'en' })));
    const ok = results.filter((r) => r.statusCode === 201);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(ok).toHaveLength(API_KEY_LIMITS.maxLiveKeys);
    for (const r of refused) {
      expect(r.statusCode).toBe(409);
      expect(r.json()).toMatchObject({ code: 'API_KEY_LIMIT_REACHED', error: ERROR_MESSAGES.API_KEY_LIMIT_REACHED.en });
    }
    const rows = await t.ctx.database.db.select().from(apiKeys).where(eq(apiKeys.userId, u.user.id));
    expect(rows).toHaveLength(API_KEY_LIMITS.maxLiveKeys);
    expect(new Set(rows.map((r) => r.secretHash)).size).toBe(rows.length);
    await revoke(u.cookie, ok[0]!.json().key.id);
    expect((await create(u.cookie, { name: 'replacement' })).statusCode).toBe(201);
  });
});

/** Two API processes on one PostgreSQL database: a key revoked in one is refused by the other at once. */
describe.runIf(TEST_DATABASES.some((k) => k.name === 'postgres'))('API key revocation across processes', () => {
  it('a key revoked through one app is refused by a second connection pool on the same database, with no delay', async () => {
    const created = await createMigratedPostgresDatabase();
    const kind: TestDatabaseKind = {
      name: 'postgres',
      async open() {
        const db = await openDatabase({ kind: 'postgres', url: created.url, poolMax: 10 });
        return Object.assign(db, { dispose: () => db.close() });
      },
    };
    const a = await createTestApp(kind);
    // The second process's view: its own pool on the same database (no cache shared with the first).
    const b = await openDatabase({ kind: 'postgres', url: created.url, poolMax: 2 });
    try {
      const u = await signUpAndLogin(a.app);
      const { key, secret } = (await a.app.inject({ method: 'POST', url: '/api/account/api-keys', headers: { cookie: u.cookie }, payload: { name: 'shared' } })).json() as { key: { id: number }; secret: string };
      expect(await authenticateApiKey(b.db, secret)).toMatchObject({ apiKeyId: key.id });
      expect((await a.app.inject({ method: 'DELETE', url: `/api/account/api-keys/${key.id}`, headers: { cookie: u.cookie } })).statusCode).toBe(200);
      expect(await authenticateApiKey(b.db, secret)).toBeNull();
    } finally {
      await b.close();
      await a.close();
      await created.drop();
    }
  });
});
