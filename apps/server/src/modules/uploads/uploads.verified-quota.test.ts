import { createHash } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, ne, sum } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, verifyFromOutbox, type TestApp } from '../../../test/helpers/test-app';
import { meteredCalls, creditLedger, jobs, uploads } from '../../db/schema';

/**
 * Issue 21 point 7 (decision 032): an account without a verified e-mail reaches no paid vendor and stores
 * no upload (403 EMAIL_NOT_VERIFIED, in the caller's language, nothing written); stored uploads have a
 * per-user quota (count and bytes of live uploads) that parallel uploads cannot overshoot. Both databases.
 */
describe.each(TEST_DATABASES)('verified callers and the stored-upload quota on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // A quota small enough to reach: 3 files, 10 MB.
    t = await createTestApp(kind, { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'text-model', UPLOAD_QUOTA_MAX_FILES: '3', UPLOAD_QUOTA_MAX_BYTES: String(10 * 1024 * 1024) });
  });
  afterAll(async () => {
    await t?.close();
  });

  const n = async (table: typeof uploads | typeof jobs | typeof meteredCalls | typeof creditLedger, userId: number) =>
    (await t.ctx.database.db.select({ n: count() }).from(table).where(eq(table.userId, userId)))[0]!.n;
  const upload = async (cookie: string, bytes: Buffer) => {
    const mp = multipartBody('image', 'p.jpg', 'image/jpeg', bytes);
    return t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload });
  };

  it('every vendor call and every upload route refuses an unverified account with 403 EMAIL_NOT_VERIFIED, before anything is written', async () => {
    const u = await signUpAndLogin(t.app, undefined, undefined, { verify: false });
    const jpeg = await makeJpeg(200, 150);
    const mp = multipartBody('image', 'p.jpg', 'image/jpeg', jpeg);
    const kling = multipartBody('character_reference_images', 'r.jpg', 'image/jpeg', jpeg);
    const img = '/u/1/originals/x.jpg';
    const requests: InjectOptions[] = [
      { method: 'POST', url: '/api/image/upload-s3', headers: mp.headers, payload: mp.payload },
      { method: 'POST', url: '/api/image/presign-upload', payload: { filename: 'a.jpg', mime: 'image/jpeg', kind: 'upscale-original', contentLength: jpeg.length, checksumSha256: createHash('sha256').update(jpeg).digest('base64') } },
      { method: 'POST', url: '/api/image/confirm-upload', payload: { key: 'u/1/incoming/x.jpg' } },
      { method: 'POST', url: '/api/image/result-to-upload', payload: { url: img } },
      { method: 'POST', url: '/api/runpod-upscale', payload: { input: { image: img, scale_factor: 1 } } },
      { method: 'POST', url: '/api/runpod-face-edit', payload: { input: { image: img, mask: img } } },
      { method: 'POST', url: '/api/seedream/generate', payload: { prompt: 'a cat', images: [img] } },
      { method: 'POST', url: '/api/kling/image-generation', headers: kling.headers, payload: kling.payload },
      { method: 'POST', url: '/api/ai/chat', headers: mp.headers, payload: mp.payload },
      { method: 'POST', url: '/api/ai/rewrite', payload: { userPrompt: 'brighter', currentPrompt: 'a cat' } },
      { method: 'POST', url: '/api/ai/extract-prompt-from-image', headers: { 'content-type': 'application/octet-stream' }, payload: jpeg },
      { method: 'POST', url: '/api/seedream/auto-prompt', payload: { images: [img] } },
    ];
    for (const lang of ['en', 'ko'] as const) {
      for (const r of requests) {
        const res = await t.app.inject({ ...r, headers: { ...r.headers, cookie: u.cookie, 'accept-language': lang } });
        expect(res.statusCode, `${r.url}: ${res.body}`).toBe(403);
        expect(res.json().code, String(r.url)).toBe('EMAIL_NOT_VERIFIED');
        expect(res.json().message).toMatch(lang === 'en' ? /verify your e-mail/ : /이메일 인증/);
      }
    }
    for (const table of [uploads, jobs, meteredCalls] as const) expect(await n(table, u.user.id)).toBe(0);
    // Reading what one has stays open to any session.
    expect((await t.app.inject({ url: `/api/image/history/${u.user.id}`, headers: { cookie: u.cookie } })).statusCode).toBe(200);

    // Once verified, the same account uploads.
    await verifyFromOutbox(t.app, u.email);
    expect((await upload(u.cookie, jpeg)).statusCode).toBe(200);
  });

  it('10 parallel direct uploads against a quota of 3 files store exactly 3; the rest answer 403 UPLOAD_STORAGE_FULL', async () => {
    const u = await signUpAndLogin(t.app);
    const jpeg = await makeJpeg(200, 150);
    const results = await Promise.all(Array.from({ length: 10 }, () => upload(u.cookie, jpeg)));
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(ok).toHaveLength(3);
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(403);
      expect(r.json()).toMatchObject({ code: 'UPLOAD_STORAGE_FULL', details: { maxStoredUploads: 3 } });
    }
    expect(await n(uploads, u.user.id)).toBe(3);
    // Nothing stored for a refused upload: only the three objects exist under the user's originals.
    const keys = (await t.ctx.database.db.select({ key: uploads.key }).from(uploads).where(eq(uploads.userId, u.user.id))).map((r) => r.key);
    for (const k of keys) expect(await t.ctx.storage.exists(k)).toBe(true);
    // Presign is held to the same quota.
    const presign = await t.app.inject({
      method: 'POST',
      url: '/api/image/presign-upload',
      headers: { cookie: u.cookie, 'accept-language': 'en' },
      payload: { filename: 'a.jpg', mime: 'image/jpeg', kind: 'upscale-original', contentLength: jpeg.length, checksumSha256: createHash('sha256').update(jpeg).digest('base64') },
    });
    expect(presign.statusCode).toBe(403);
    expect(presign.json()).toMatchObject({ code: 'UPLOAD_STORAGE_FULL', message: expect.stringMatching(/30 days/) });
    // An upload the retention expired frees its place.
    await t.ctx.database.db.update(uploads).set({ status: 'expired' }).where(eq(uploads.key, keys[0]!));
    expect((await upload(u.cookie, jpeg)).statusCode).toBe(200);
  });

  it('parallel presigned uploads cannot pass the byte quota (10 MB): 4 MB each, only 2 are recorded', async () => {
    const u = await signUpAndLogin(t.app);
    const body = (i: number) => ({ filename: `a${i}.jpg`, mime: 'image/jpeg', kind: 'upscale-original', contentLength: 4 * 1024 * 1024, checksumSha256: createHash('sha256').update(`x${i}`).digest('base64') });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => t.app.inject({ method: 'POST', url: '/api/image/presign-upload', headers: { cookie: u.cookie }, payload: body(i) })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(2);
    for (const r of results.filter((x) => x.statusCode !== 200)) expect(r.json().code).toBe('UPLOAD_STORAGE_FULL');
    const [held] = await t.ctx.database.db
      .select({ bytes: sum(uploads.bytes), n: count() })
      .from(uploads)
      .where(and(eq(uploads.userId, u.user.id), ne(uploads.status, 'expired')));
    expect(held!.n).toBe(2);
    expect(Number(held!.bytes)).toBeLessThanOrEqual(10 * 1024 * 1024);
  });
});
