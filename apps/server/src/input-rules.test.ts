import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, sql } from 'drizzle-orm';
import { TEST_DATABASES } from '../test/helpers/databases';
import { makeJpeg, multipartBody } from '../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../test/helpers/test-app';
import { creditLedger, jobs, uploads, users } from './db/schema';
import { getBalance, ledgerSums } from './modules/credits';

/**
 * Issue 7 items 3 and 10: a control character in any request string, and a scale factor the engine
 * cannot honour, are refused at the contract with 400 VALIDATION_FAILED naming the field — before a
 * password is hashed, a credit is charged or a row is written. Attackers' input, on both databases.
 */
describe.each(TEST_DATABASES)('request input rules on $name', (kind) => {
  let t: TestApp;
  let cookie: string;
  let userId: number;
  let imageUrl: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    // Routes that push raw text into the database, past any contract: the error handler's net.
    t.app.post('/test/raw-text', async (req) => {
      const { value, as } = req.body as { value: string; as: 'text' | 'jsonb' };
      await (as === 'jsonb' ? t.ctx.database.db.execute(sql`select ${value}::jsonb`) : t.ctx.database.db.execute(sql`select ${value}::text`));
      return { ok: true };
    });
    ({ cookie, user: { id: userId } } = await signUpAndLogin(t.app));
    const mp = multipartBody('image', 'p.jpg', 'image/jpeg', await makeJpeg(300, 200));
    imageUrl = (await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json().imageUrl;
  });
  afterAll(async () => {
    await t?.close();
  });

  const n = async (table: typeof users | typeof creditLedger | typeof jobs | typeof uploads) => (await t.ctx.database.db.select({ n: count() }).from(table))[0]!.n;
  const snapshot = async () => ({
    users: await n(users),
    ledger: await n(creditLedger),
    jobs: await n(jobs),
    uploads: await n(uploads),
    balance: (await getBalance(t.ctx.database.db, userId)).total,
    ledgerSum: (await ledgerSums(t.ctx.database.db, userId)).total,
  });
  function expectRefused(res: { statusCode: number; json(): { code: string; details?: Array<{ field: string }> } }, field: string, what: string) {
    expect(res.statusCode, `${what}: ${JSON.stringify(res.json())}`).toBe(400);
    expect(res.json().code, what).toBe('VALIDATION_FAILED');
    expect(res.json().details?.map((d) => d.field), what).toContain(field);
  }

  it('a NUL (or another control character) in register and login fields answers 400 naming the field, and writes nothing', async () => {
    const before = await snapshot();
    const base = { name: 'Tester', email: 'nul-test@example.com', password: 'password-1' };
    for (const [field, value] of [
      ['name', 'a\u0000b'],
      ['name', 'x\u0007'],
      ['name', 'x\u0085'],
      ['name', 'x\uD800'],
      ['email', 'nul\u0000@example.com'],
      ['password', 'password-1\u0000'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...base, [field]: value } });
      expectRefused(res, field, `register ${field}=${JSON.stringify(value)}`);
    }
    for (const [field, value] of [
      ['email', 'nul\u0000@example.com'],
      ['password', 'pass\u0000word'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@example.com', password: 'password-1', [field]: value } });
      expectRefused(res, field, `login ${field}`);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a NUL in the upscale input (image, prompt, filter_prompt) answers 400 naming input.<field>: nothing charged, no job', async () => {
    const before = await snapshot();
    for (const [field, value] of [
      ['image', `${imageUrl}\u0000`],
      ['prompt', 'soft skin\u0000'],
      ['prompt', '\u001b[31m'],
      ['filter_prompt', 'studio filter\u0000'],
      ['filter_prompt', 'studio\nfilter'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image: imageUrl, [field]: value } } });
      expectRefused(res, `input.${field}`, `upscale ${field}=${JSON.stringify(value)}`);
    }
    const keyed = await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie, 'idempotency-key': 'abcdefgh\u0085' }, payload: { input: { image: imageUrl } } });
    expectRefused(keyed, 'idempotency-key', 'idempotency-key header');
    expect(await snapshot()).toEqual(before);
  });

  it('a NUL in upload and download fields answers 400 naming the field, and stores nothing', async () => {
    const before = await snapshot();
    const checksumSha256 = createHash('sha256').update('x').digest('base64');
    const presign = await t.app.inject({
      method: 'POST',
      url: '/api/image/presign-upload',
      headers: { cookie },
      payload: { filename: 'a\u0000.jpg', mime: 'image/jpeg', contentLength: 1, checksumSha256 },
    });
    expectRefused(presign, 'filename', 'presign filename');
    expectRefused(await t.app.inject({ method: 'POST', url: '/api/image/confirm-upload', headers: { cookie }, payload: { key: `u/${userId}/originals/a\u0000.jpg` } }), 'key', 'confirm key');
    expectRefused(await t.app.inject({ method: 'POST', url: '/api/image/presign-download', headers: { cookie }, payload: { url: `${imageUrl}\u0000` } }), 'url', 'presign-download url');
    expectRefused(await t.app.inject({ url: `/api/image/download?url=${encodeURIComponent(`${imageUrl}\u0000`)}`, headers: { cookie } }), 'url', 'download proxy url');
    expect(await snapshot()).toEqual(before);
  });

  it('a multi-line prompt is still accepted', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image: imageUrl, prompt: 'line one\n\tline two\r\n' } } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('text PostgreSQL cannot store (22021 in text, 22P05 in jsonb) answers 400, never 500', async () => {
    for (const as of ['text', 'jsonb'] as const) {
      const value = as === 'text' ? 'a\u0000b' : '{"a":"\\u0000"}';
      const res = await t.app.inject({ method: 'POST', url: '/test/raw-text', payload: { value, as } });
      expect(res.statusCode, `${as}: ${res.body}`).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('scale_factor outside 0.1..2 answers 400 and charges nothing; 0.1 and 2 are accepted', async () => {
    const before = await snapshot();
    for (const bad of [0.001, 0, 0.05, 0.0999, 2.01, -1, 'NaN', '1', 'Infinity', null, Number.POSITIVE_INFINITY]) {
      // Infinity goes as the JSON number 1e309 (JSON.parse makes it Infinity); the others are sent as written
      const payload = typeof bad === 'number' && !Number.isFinite(bad) ? `{"input":{"image":${JSON.stringify(imageUrl)},"scale_factor":1e309}}` : { input: { image: imageUrl, scale_factor: bad } };
      const res = await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie, 'content-type': 'application/json' }, payload: payload as never });
      expectRefused(res, 'input.scale_factor', `scale_factor=${String(bad)}`);
    }
    expect(await snapshot()).toEqual(before);
    for (const ok of [0.1, 2]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image: imageUrl, scale_factor: ok } } });
      expect(res.statusCode, `${ok}: ${res.body}`).toBe(200); // 300×200 ×2 = 1000 px: not blocked
      expect(res.json().cost).toBe(80);
    }
    expect((await snapshot()).balance).toBe(before.balance - 160);
  });
});
