import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, count, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS, upscaleCost } from '@dewy/contracts';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makePng, makeRotatedJpeg, multipartBody, personalTraces, POLYGLOT_TAIL, withPersonalMetadata } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { jobs, uploads } from '../../db/schema';

// Issue 7 items 4 and 5 (docs/decisions/009): only the picture is stored and served, only confirmed
// uploads and job results are readable, pending uploads are capped per user.

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../../shared/fixtures/portraits');
const obamaJpg = fs.readFileSync(path.join(FIXTURES, 'obama_910x1137.jpg'));
const SEOUL = { lat: 37.5665, lon: 126.978 };
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('base64');
const HTML = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');

describe.each(TEST_DATABASES)('upload pipeline hardening on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const file = (key: string) => path.join(t.dataDir, 'files', key);
  const keyOf = (url: string) => new URL(url, 'http://localhost').searchParams.get('key')!;

  async function upload(cookie: string, bytes: Buffer, name = 'photo.jpg', type = 'image/jpeg') {
    const mp = multipartBody('image', name, type, bytes);
    return t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload });
  }
  async function presign(cookie: string, bytes: Buffer, mime = 'image/jpeg', contentLength = bytes.length) {
    return t.app.inject({
      method: 'POST',
      url: '/api/image/presign-upload',
      headers: { cookie },
      payload: { filename: 'photo.jpg', mime, kind: 'upscale-original', contentLength, checksumSha256: sha256(bytes) },
    });
  }
  async function put(pre: { url: string; requiredHeaders: Record<string, string> }, bytes: Buffer) {
    return t.app.inject({ method: 'PUT', url: pre.url, headers: { ...pre.requiredHeaders, 'content-length': String(bytes.length) }, payload: bytes });
  }
  const confirm = (cookie: string, key: string) => t.app.inject({ method: 'POST', url: '/api/image/confirm-upload', headers: { cookie }, payload: { key } });
  const presignDownload = (cookie: string, url: string) => t.app.inject({ method: 'POST', url: '/api/image/presign-download', headers: { cookie }, payload: { url } });
  const proxy = (cookie: string, url: string) => t.app.inject({ url: `/api/image/download?url=${encodeURIComponent(url)}`, headers: { cookie } });

  /** The stored object and every URL that serves it carry only the picture. */
  async function expectOnlyThePictureServed(cookie: string, imageUrl: string) {
    const key = keyOf(imageUrl);
    const stored = fs.readFileSync(file(key));
    expect(await personalTraces(stored), 'stored object').toEqual([]);
    const row = (await t.ctx.database.db.select().from(uploads).where(eq(uploads.key, key)))[0]!;
    expect(row).toMatchObject({ status: 'confirmed', bytes: stored.length, sha256: sha256(stored) });
    const view = await t.app.inject({ url: imageUrl });
    expect(view.statusCode).toBe(200);
    expect(await personalTraces(view.rawPayload), 'view URL').toEqual([]);
    const dl = await presignDownload(cookie, imageUrl);
    expect(dl.statusCode).toBe(200);
    const viaDownload = await t.app.inject({ url: dl.json().downloadUrl });
    expect(await personalTraces(viaDownload.rawPayload), 'presign-download').toEqual([]);
    const viaProxy = await proxy(cookie, imageUrl);
    expect(viaProxy.statusCode).toBe(200);
    expect(await personalTraces(viaProxy.rawPayload), 'download proxy').toEqual([]);
    return stored;
  }

  it('a direct upload with GPS EXIF, a camera serial, XMP and an appended <script> + ZIP is stored and served as the picture only', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    const photo = Buffer.concat([withPersonalMetadata(obamaJpg, { serial: 'SN-DEWY-0042', gps: SEOUL, xmpAndComment: true }), POLYGLOT_TAIL]);
    expect(await personalTraces(photo)).toContain('Exif\0');
    const up = await upload(cookie, photo);
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({ width: 910, height: 1137 });
    const stored = await expectOnlyThePictureServed(cookie, up.json().imageUrl);
    expect(stored.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
  });

  it('a presigned upload is re-encoded at confirm (GPS, serial, <script> gone; orientation applied), confirming twice answers the same, and the incoming object is deleted', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    const photo = Buffer.concat([withPersonalMetadata(obamaJpg, { orientation: 6, serial: 'SN-DEWY-0042', gps: SEOUL, xmpAndComment: true }), POLYGLOT_TAIL]);
    const pre = (await presign(cookie, photo)).json();
    expect((await put(pre, photo)).statusCode).toBe(200);
    const first = await confirm(cookie, pre.key);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, width: 1137, height: 910 });
    const second = await confirm(cookie, pre.key);
    expect(second.statusCode).toBe(200);
    expect(keyOf(second.json().imageUrl)).toBe(keyOf(first.json().imageUrl));
    expect(second.json()).toMatchObject({ width: 1137, height: 910 });
    const stored = await expectOnlyThePictureServed(cookie, first.json().imageUrl);
    expect(await sharp(stored).metadata()).toMatchObject({ width: 1137, height: 910 });
    // What the browser sent (with the GPS position) is not kept, and its key is never readable.
    expect(fs.existsSync(file(pre.key))).toBe(false);
    // A replay of the PUT URL lands on the incoming key only: the stored picture is untouched.
    expect((await put(pre, photo)).statusCode).toBe(200);
    expect(fs.readFileSync(file(keyOf(first.json().imageUrl))).equals(stored)).toBe(true);
    expect((await presignDownload(cookie, `/api/storage/file?key=${pre.key}`)).statusCode).toBe(404);
  });

  it('parallel confirms of one upload all answer the same picture, stored once', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const photo = withPersonalMetadata(obamaJpg, { gps: SEOUL });
    const pre = (await presign(cookie, photo)).json();
    await put(pre, photo);
    const results = await Promise.all(Array.from({ length: 5 }, () => confirm(cookie, pre.key)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => keyOf(r.json().imageUrl))).size).toBe(1);
    const rows = await t.ctx.database.db.select().from(uploads).where(eq(uploads.userId, user.id));
    expect(rows.map((r) => r.status)).toEqual(['confirmed']);
    expect(await personalTraces(fs.readFileSync(file(rows[0]!.key)))).toEqual([]);
  });

  it('an EXIF orientation-6 photo is stored upright with its sides swapped, and the job is costed on those sides', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    const up = await upload(cookie, await makeRotatedJpeg(1200, 800));
    expect(up.json()).toMatchObject({ width: 800, height: 1200 });
    const stored = fs.readFileSync(file(keyOf(up.json().imageUrl)));
    const meta = await sharp(stored).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([800, 1200, undefined]);
    const job = await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image: up.json().imageUrl, scale_factor: 1.5 } } });
    expect(job.statusCode).toBe(200);
    expect(job.json().cost).toBe(upscaleCost(800, 1200, 1.5));
    const row = (await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, job.json().jobId)))[0]!;
    expect([row.originalWidth, row.originalHeight]).toEqual([800, 1200]);
  });

  it('a pending upload is never readable: HTML PUT to a presigned URL answers 404 from presign-download and the proxy, before and after a refused confirm', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const pre = (await presign(cookie, HTML)).json();
    expect((await put(pre, HTML)).statusCode).toBe(200);
    const storedKey = pre.key.replace('/incoming/', '/originals/');
    const candidates = [
      `/api/storage/file?key=${encodeURIComponent(pre.key)}`,
      `http://localhost:5000/${pre.key}`,
      `/api/storage/file?key=${encodeURIComponent(storedKey)}`,
    ];
    for (const url of candidates) {
      expect((await presignDownload(cookie, url)).statusCode, url).toBe(404);
      const p = await proxy(cookie, url);
      expect(p.statusCode, url).toBe(404);
      expect(p.headers['content-type']).not.toMatch(/^image\//);
    }
    const refused = await confirm(cookie, pre.key);
    expect(refused.json().code).toBe('UNSUPPORTED_IMAGE_TYPE');
    // Nothing of it is left: no file, and the row (kept until the URL expires) is not readable.
    expect(fs.existsSync(file(pre.key))).toBe(false);
    expect(fs.existsSync(file(storedKey))).toBe(false);
    const rows = await t.ctx.database.db.select().from(uploads).where(eq(uploads.userId, user.id));
    expect(rows.map((r) => r.status)).toEqual(['rejected']);
    for (const url of candidates) {
      expect((await presignDownload(cookie, url)).statusCode, url).toBe(404);
      expect((await proxy(cookie, url)).statusCode, url).toBe(404);
    }
    expect((await confirm(cookie, pre.key)).statusCode).toBe(404);
    const job = await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image: candidates[2] } } });
    expect(job.statusCode).toBe(404);
  });

  it('the download proxy answers with the type of what is stored, nosniff and attachment: a PNG announced as JPEG stays a PNG', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    const png = await makePng(120, 80);
    const pre = (await presign(cookie, png, 'image/jpeg')).json();
    await put(pre, png);
    const conf = await confirm(cookie, pre.key);
    expect(conf.statusCode).toBe(200);
    expect(keyOf(conf.json().imageUrl)).toMatch(/\/originals\/[0-9a-f-]+\.png$/);
    const res = await proxy(cookie, conf.json().imageUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="dewy-[0-9a-f]{8}\.png"/);
    expect(res.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('presign-upload holds the per-user pending cap under 20 parallel requests, with the message in both languages', async () => {
    const a = await signUpAndLogin(t.app);
    const b = await signUpAndLogin(t.app);
    const announced = Buffer.alloc(16, 1); // only its checksum is sent; the length is announced
    const send = (cookie: string, lang: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/image/presign-upload',
        headers: { cookie, 'accept-language': lang },
        payload: { filename: 'big.jpg', mime: 'image/jpeg', kind: 'upscale-original', contentLength: UPLOAD_LIMITS.maxBytes, checksumSha256: sha256(announced) },
      });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => send(a.cookie, i % 2 ? 'en' : 'ko')));
    // The cap is four maximal uploads.
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(4);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(429);
      expect(r.json().code).toBe('UPLOAD_QUOTA_EXCEEDED');
      expect(['업로드 대기 중인 파일이 너무 많습니다. 잠시 후 다시 시도해주세요.', 'Too many uploads are still waiting to finish. Please try again in a few minutes.']).toContain(r.json().error);
    }
    const rows = await t.ctx.database.db.select({ n: count() }).from(uploads).where(and(eq(uploads.userId, a.user.id), eq(uploads.status, 'pending')));
    expect(rows[0]!.n).toBe(4);
    // Refused requests recorded nothing; another user is not affected.
    expect((await send(b.cookie, 'ko')).statusCode).toBe(200);
  });

  it('presign-upload also caps the number of pending uploads, whatever their size', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const tiny = Buffer.from('x');
    const results = await Promise.all(Array.from({ length: 25 }, () => presign(cookie, tiny)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(20);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(5);
    const rows = await t.ctx.database.db.select({ n: count() }).from(uploads).where(and(eq(uploads.userId, user.id), inArray(uploads.status, ['pending'])));
    expect(rows[0]!.n).toBe(UPLOAD_LIMITS.maxPendingUploadsPerUser);
  });
});
