import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { upscaleCost } from '@dewy/contracts';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, makePng, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { jobs, uploads, users } from '../../db/schema';
import { getBalance, ledgerSums } from '../credits';
import { waitFor } from '../../../test/helpers/wait';

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
}


describe.each(TEST_DATABASES)('upscale jobs on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function upload(cookie: string, bytes: Buffer, filename = 'photo.jpg', type = 'image/jpeg') {
    const mp = multipartBody('image', filename, type, bytes);
    return t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload });
  }
  const status = async (cookie: string, jobId: string) => (await t.app.inject({ url: `/api/image/status/${jobId}`, headers: { cookie } })).json();

  it('uploads, charges the server-computed cost, completes, and lists and downloads the result', async () => {
    const { app } = t;
    const { cookie, user } = await signUpAndLogin(app);
    const up = await upload(cookie, await makeJpeg(600, 400));
    expect(up.statusCode).toBe(200);
    const { imageUrl, width, height } = up.json();
    expect([width, height]).toEqual([600, 400]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/runpod-upscale',
      headers: { cookie },
      payload: { input: { image: imageUrl, scale_factor: 1.5, width: 1, height: 1, lora_index: 2 } }, // page-sent sizes are ignored
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, status: 'processing', cost: upscaleCost(600, 400, 1.5) });
    expect(body.credits).toBe(300 - 80);
    const done = await waitFor(async () => {
      const s = await status(cookie, body.jobId);
      return s.status === 'completed' ? s : undefined;
    });
    const file = await app.inject({ url: done.imageUrl });
    expect(file.statusCode).toBe(200);
    const meta = await sharp(file.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([900, 600]);
    const hist = (await app.inject({ url: `/api/image/history/${user.id}?source=upscale`, headers: { cookie } })).json();
    expect(hist.images[0]).toMatchObject({ status: 'completed', runpod_job_id: body.jobId, original_width: 600, width: 900, source: 'upscale' });
    const dl = await app.inject({ method: 'POST', url: '/api/image/presign-download', headers: { cookie }, payload: { url: done.imageUrl } });
    expect(dl.statusCode).toBe(200);
    const got = await app.inject({ url: dl.json().downloadUrl });
    expect(got.headers['content-disposition']).toMatch(/attachment/);
    const proxy = await app.inject({ url: `/api/image/download?url=${encodeURIComponent(done.imageUrl)}`, headers: { cookie } });
    expect(proxy.statusCode).toBe(200);
    expect(proxy.rawPayload.equals(got.rawPayload)).toBe(true);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(220);
  });

  it('refunds once when the engine fails', async () => {
    const { app, ctx, engine } = t;
    const { cookie, user } = await signUpAndLogin(app);
    const { imageUrl } = (await upload(cookie, await makePng(300, 200), 'p.png', 'image/png')).json();
    engine.mode = 'fail';
    try {
      const res = await app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image: imageUrl } } });
      expect(res.json().credits).toBe(220);
      await waitFor(async () => ((await status(cookie, res.json().jobId)).status === 'failed' ? true : undefined));
    } finally {
      engine.mode = 'ok';
    }
    expect(await getBalance(ctx.database.db, user.id)).toMatchObject({ total: 300 });
    expect(await ledgerSums(ctx.database.db, user.id)).toMatchObject({ total: 300 });
  });

  it('20 concurrent generate clicks with credits for 3 charge exactly 3', async () => {
    const { app, ctx, engine } = t;
    const { cookie, user } = await signUpAndLogin(app);
    await ctx.database.db.update(users).set({ oneTimeCredits: 240 }).where(eq(users.id, user.id)); // 3 × 80
    const { imageUrl } = (await upload(cookie, await makeJpeg(500, 500))).json();
    engine.delayMs = 300;
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, () => app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie, 'accept-language': 'ko' }, payload: { input: { image: imageUrl } } })),
      );
      const ok = results.filter((r) => r.statusCode === 200);
      expect(ok).toHaveLength(3);
      for (const r of results.filter((x) => x.statusCode !== 200)) {
        expect(r.statusCode).toBe(400);
        expect(r.json().error).toBe('크레딧이 부족합니다.');
      }
      expect((await getBalance(ctx.database.db, user.id)).total).toBe(0);
      const rows = await ctx.database.db.select({ n: count() }).from(jobs).where(eq(jobs.userId, user.id));
      expect(rows[0]!.n).toBe(3);
    } finally {
      engine.delayMs = 0;
    }
  });

  it('a replayed Idempotency-Key answers the same job and charges once', async () => {
    const { app, ctx } = t;
    const { cookie, user } = await signUpAndLogin(app);
    const { imageUrl } = (await upload(cookie, await makeJpeg(400, 400))).json();
    const send = () => app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie, 'idempotency-key': 'click-123456' }, payload: { input: { image: imageUrl } } });
    const [a, b] = await Promise.all([send(), send()]);
    expect(a.json().jobId).toBe(b.json().jobId);
    expect((await getBalance(ctx.database.db, user.id)).total).toBe(220);
  });

  it('an Idempotency-Key reused with another body answers 422 and charges nothing more', async () => {
    const { app, ctx } = t;
    const { cookie, user } = await signUpAndLogin(app);
    const { imageUrl } = (await upload(cookie, await makeJpeg(400, 400))).json();
    const send = (input: object, lang = 'en') =>
      app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie, 'idempotency-key': 'click-reuse-1', 'accept-language': lang }, payload: { input } });
    const first = await send({ image: imageUrl, scale_factor: 1 });
    expect(first.statusCode).toBe(200);
    const other = await send({ image: imageUrl, scale_factor: 1.5 });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringMatching(/Idempotency-Key/) });
    const ko = await send({ image: imageUrl, lora_index: 3 }, 'ko');
    expect(ko.statusCode).toBe(422);
    expect(ko.json().message).toMatch(/요청 키/);
    // in parallel, with different bodies: one job, the rest 422 or the same job
    const racing = await Promise.all([1, 1.2, 1.4, 1.6].map((f) => app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie, 'idempotency-key': 'click-race-22' }, payload: { input: { image: imageUrl, scale_factor: f } } })));
    expect(racing.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(racing.filter((r) => r.statusCode === 422)).toHaveLength(3);
    const same = await send({ image: imageUrl, scale_factor: 1 });
    expect(same.json().jobId).toBe(first.json().jobId);
    const winner = racing.find((r) => r.statusCode === 200)!.json();
    expect((await getBalance(ctx.database.db, user.id)).total).toBe(300 - first.json().cost - winner.cost);
  });

  it('refuses the blocked size, a foreign image, and short credits without charging', async () => {
    const { app, ctx } = t;
    const a = await signUpAndLogin(app);
    const b = await signUpAndLogin(app);
    const { imageUrl } = (await upload(a.cookie, await makeJpeg(1200, 1000))).json();
    const blocked = await app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie: a.cookie }, payload: { input: { image: imageUrl, scale_factor: 2 } } });
    expect(blocked.json().code).toBe('UPSCALE_BLOCKED');
    const foreign = await app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie: b.cookie }, payload: { input: { image: imageUrl } } });
    expect(foreign.statusCode).toBe(403);
    const badScale = await app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie: a.cookie }, payload: { input: { image: imageUrl, scale_factor: 0 } } });
    expect(badScale.json().code).toBe('VALIDATION_FAILED');
    await ctx.database.db.update(users).set({ oneTimeCredits: 79 }).where(eq(users.id, a.user.id));
    const short = await app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie: a.cookie, 'accept-language': 'en' }, payload: { input: { image: imageUrl } } });
    expect(short.json()).toMatchObject({ code: 'INSUFFICIENT_CREDITS', error: 'Not enough credits.' });
    expect((await getBalance(ctx.database.db, a.user.id)).total).toBe(79);
    expect((await getBalance(ctx.database.db, b.user.id)).total).toBe(300);
    const noAuth = await app.inject({ method: 'POST', url: '/api/runpod-upscale', payload: { input: { image: imageUrl } } });
    expect(noAuth.statusCode).toBe(401);
  });

  it('one user can never read another user\'s file, status or history', async () => {
    const { app } = t;
    const a = await signUpAndLogin(app);
    const b = await signUpAndLogin(app);
    const { imageUrl } = (await upload(a.cookie, await makeJpeg(300, 300))).json();
    const job = (await app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie: a.cookie }, payload: { input: { image: imageUrl } } })).json();
    expect((await app.inject({ url: `/api/image/status/${job.jobId}`, headers: { cookie: b.cookie } })).statusCode).toBe(404);
    expect((await app.inject({ url: `/api/image/history/${a.user.id}`, headers: { cookie: b.cookie } })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/api/image/presign-download', headers: { cookie: b.cookie }, payload: { url: imageUrl } })).statusCode).toBe(403);
    expect((await app.inject({ url: `/api/image/download?url=${encodeURIComponent(imageUrl)}`, headers: { cookie: b.cookie } })).statusCode).toBe(403);
    const tampered = imageUrl.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await app.inject({ url: tampered })).statusCode).toBe(403);
  });

  it('bad uploads get the spec message and store nothing', async () => {
    const { app, ctx, dataDir } = t;
    const { cookie, user } = await signUpAndLogin(app);
    const userDir = path.join(dataDir, 'files', 'u', String(user.id));
    const jpeg = await makeJpeg(400, 300);
    const bomb = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000075300000753008020000000000000000', // PNG header claiming 30000×30000
      'hex',
    );
    const cases: [Buffer, string, string, string][] = [
      [Buffer.from('hello, I am not an image'), 'fake.jpg', 'image/jpeg', 'UNSUPPORTED_IMAGE_TYPE'],
      [Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'x.gif', 'image/gif', 'UNSUPPORTED_IMAGE_TYPE'],
      [jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'half.jpg', 'image/jpeg', 'IMAGE_CORRUPT'],
      [bomb, 'bomb.png', 'image/png', 'IMAGE_TOO_MANY_PIXELS'],
      [Buffer.alloc(26 * 1024 * 1024, 0xff), 'big.jpg', 'image/jpeg', 'IMAGE_TOO_LARGE'],
    ];
    for (const [bytes, name, type, code] of cases) {
      const res = await upload(cookie, bytes, name, type);
      expect(res.json().code, name).toBe(code);
    }
    const ko = await upload(cookie, Buffer.from('nope'), 'a.jpg', 'image/jpeg');
    expect(ko.json().error).toBe('jpg,png만 업로드 가능합니다!');
    expect(listFiles(userDir)).toEqual([]);
    expect((await ctx.database.db.select({ n: count() }).from(uploads).where(eq(uploads.userId, user.id)))[0]!.n).toBe(0);
    // a PNG named .jpg is accepted by its bytes
    const png = await upload(cookie, await makePng(200, 100), 'really-a-png.jpg', 'image/jpeg');
    expect(png.statusCode).toBe(200);
  });

  it('presigned upload: PUT with the checksum, confirm; a wrong body is refused and leaves nothing', async () => {
    const { app, ctx } = t;
    const { cookie, user } = await signUpAndLogin(app);
    const bytes = await makeJpeg(320, 240);
    const sha = createHash('sha256').update(bytes).digest('base64');
    const pre = await app.inject({
      method: 'POST',
      url: '/api/image/presign-upload',
      headers: { cookie },
      payload: { filename: 'a.jpg', mime: 'image/jpeg', kind: 'upscale-original', contentLength: bytes.length, checksumSha256: sha },
    });
    expect(pre.statusCode).toBe(200);
    const { url, key, requiredHeaders } = pre.json();
    const bad = Buffer.from(bytes);
    bad[bad.length - 10] = (bad[bad.length - 10] ?? 0) ^ 0xff;
    const put1 = await app.inject({ method: 'PUT', url, headers: { ...requiredHeaders, 'content-length': String(bad.length) }, payload: bad });
    expect(put1.statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/api/image/confirm-upload', headers: { cookie }, payload: { key } })).statusCode).toBe(404);
    const put2 = await app.inject({ method: 'PUT', url, headers: { ...requiredHeaders, 'content-length': String(bytes.length) }, payload: bytes });
    expect(put2.statusCode).toBe(200);
    const other = await signUpAndLogin(app);
    expect((await app.inject({ method: 'POST', url: '/api/image/confirm-upload', headers: { cookie: other.cookie }, payload: { key } })).statusCode).toBe(404);
    const conf = await app.inject({ method: 'POST', url: '/api/image/confirm-upload', headers: { cookie }, payload: { key } });
    expect(conf.json()).toMatchObject({ success: true, width: 320, height: 240 });
    const rows = await ctx.database.db.select().from(uploads).where(eq(uploads.userId, user.id));
    expect(rows.map((r) => r.status)).toEqual(['confirmed']);
  });
});
