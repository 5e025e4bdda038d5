import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { IMAGE_EDIT } from '@dewy/contracts';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { waitFor } from '../../../test/helpers/wait';
import { startFakeSeedream, type FakeSeedream } from '../../../test/fakes/fake-seedream.server';
import { jobs } from '../../db/schema';
import { getBalance, ledgerSums, spend } from '../credits';
import { resultKeysOf } from '../images';

const KEY = 'ark-test-key';

/** A mask PNG: black with a white rectangle over the left half (or all black when `empty`). */
async function maskPng(width: number, height: number, empty = false): Promise<Buffer> {
  const svg = `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="black"/>${empty ? '' : `<rect x="0" y="0" width="${width / 2}" height="${height}" fill="white"/>`}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Mean RGB of a region of an image. */
async function meanRgb(bytes: Buffer, region: { left: number; top: number; width: number; height: number }) {
  // stats() reads the input, not the pipeline: materialise the region first.
  const st = await sharp(await sharp(bytes).extract(region).png().toBuffer()).stats();
  return st.channels.slice(0, 3).map((c) => c.mean);
}

describe.each(TEST_DATABASES)('image edit on Seedream (fake ModelArk) on $name', (kind) => {
  let t: TestApp;
  let fake: FakeSeedream;
  let refA: Buffer;
  let refB: Buffer;

  beforeAll(async () => {
    fake = await startFakeSeedream({ apiKey: KEY });
    t = await createTestApp(
      kind,
      {
        SEEDREAM_API_KEY: KEY,
        SEEDREAM_BASE_URL: fake.baseUrl,
        SEEDREAM_MODEL: 'seedream-4-0-250828',
        SEEDREAM_RETRY_BASE_MS: '20',
        SEEDREAM_MAX_ATTEMPTS: '4',
        SEEDREAM_CONCURRENCY: '2',
        SEEDREAM_REQUEST_TIMEOUT_MS: '60000',
        JOB_TIMEOUT_SECONDS: '30',
      },
      { workers: true },
    );
    refA = await makeJpeg(1280, 720);
    refB = await makeJpeg(960, 960);
  }); // the hook timeout of vitest.config.ts: a deadline, generous under load
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.options.mode = 'ok';
    fake.options.delayMs = 0;
    fake.requests = [];
    fake.maxInFlight = 0;
  });

  async function upload(cookie: string, bytes: Buffer, name = 'p.jpg', type = 'image/jpeg') {
    const mp = multipartBody('image', name, type, bytes);
    const r = await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().imageUrl as string;
  }
  const generate = (cookie: string, body: object, lang = 'ko') =>
    t.app.inject({ method: 'POST', url: '/api/seedream/generate?async=1', headers: { cookie, 'accept-language': lang }, payload: body });
  const status = (cookie: string, id: string) => t.app.inject({ url: `/api/seedream/status/${id}`, headers: { cookie } });
  async function settled(cookie: string, id: string) {
    return waitFor(async () => {
      const s = (await status(cookie, id)).json();
      return s.status === 'processing' ? undefined : (s as { status: string; urls: string[]; partial: boolean; error: { code: string } | null });
    });
  }
  const rowOf = async (taskId: string) => (await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, taskId.replace('seedream-', ''))))[0]!;

  it('edits with two references: charges 15, sends both as data URIs, stores the result in our storage', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const a = await upload(cookie, refA);
    const b = await upload(cookie, refB);
    const r = await generate(cookie, { prompt: 'put the hat of image 2 on image 1', images: [a, b], size: '1280x720', seed: 42 });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ success: true, status: 'processing', urls: [], cost: 15, credits: 285 });
    expect(r.json().seedream_task_id).toMatch(/^seedream-[0-9a-f-]{36}$/);
    const s = await settled(cookie, r.json().seedream_task_id);
    expect(s).toMatchObject({ status: 'completed', partial: false, error: null });
    expect(s.urls).toHaveLength(1);

    const req = fake.requests.at(-1)!;
    expect(req).toMatchObject({ model: 'seedream-4-0-250828', prompt: 'put the hat of image 2 on image 1', size: '1280x720', sequential: 'disabled', maxImages: null, responseFormat: 'url', watermark: false });
    expect(req.image).toHaveLength(2);
    expect(req.image.every((i) => i.startsWith('data:image/jpeg;base64,'))).toBe(true);
    expect(req.seed).toBeUndefined(); // seedream 4.0 takes no seed

    const row = await rowOf(r.json().seedream_task_id);
    expect(row).toMatchObject({ source: 'seedream', jobName: 'image-edit', status: 'completed', cost: 15, seed: 42, width: 1280, height: 720 });
    const stored = await t.ctx.storage.get(row.resultKey!);
    expect((await sharp(stored).metadata()).width).toBe(1280);
    expect(row.resultKey).toMatch(new RegExp(`^u/${user.id}/results/`));
    // The URL handed out is ours (signed, local storage), never the vendor's expiring one.
    expect(s.urls[0]).not.toContain(fake.baseUrl);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(285);
    expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(285);
  });

  it('multi-image: num_images 3 with max_images 2 → two sequential calls, 3 stored results, each downloadable', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const a = await upload(cookie, refA);
    const r = await generate(cookie, { prompt: 'three variations', images: [a], num_images: 3, max_images: 2, size: '1280x720' });
    expect(r.json()).toMatchObject({ cost: 45, credits: 255 });
    const s = await settled(cookie, r.json().seedream_task_id);
    expect(s.status).toBe('completed');
    expect(s.urls).toHaveLength(3);
    expect(fake.requests.map((q) => [q.sequential, q.maxImages])).toEqual([
      ['auto', 2],
      ['disabled', null],
    ]);
    const row = await rowOf(r.json().seedream_task_id);
    const keys = resultKeysOf(row);
    expect(keys).toHaveLength(3);
    for (const k of keys) expect(await t.ctx.storage.exists(k)).toBe(true);
    for (const url of s.urls) {
      const d = await t.app.inject({ method: 'POST', url: '/api/image/presign-download', headers: { cookie }, payload: { url } });
      expect(d.statusCode, d.body).toBe(200);
    }
    const hist = (await t.app.inject({ url: '/api/seedream/history?grouped=1&status=completed&limit=9&offset=0', headers: { cookie } })).json();
    expect(hist.items[0]).toMatchObject({ seedream_task_id: r.json().seedream_task_id, status: 'completed', num_images: 3, size: '1280x720' });
    expect(hist.items[0].all_image_urls).toHaveLength(3);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(255);
  });

  it('fewer images than ordered (content filter): completes with what was made, partial, and returns 15 per missing image', async () => {
    fake.options.mode = 'partial';
    const { cookie, user } = await signUpAndLogin(t.app);
    const a = await upload(cookie, refA);
    const r = await generate(cookie, { prompt: 'three shots', images: [a], num_images: 3, max_images: 2, size: '1280x720' });
    expect(r.json().credits).toBe(255);
    const s = await settled(cookie, r.json().seedream_task_id);
    expect(s).toMatchObject({ status: 'completed', partial: true });
    expect(s.urls).toHaveLength(2);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(270);
    expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(270);
  });

  it('the generic status and history present an image-edit job through its tool: partial as its own status says, its task id in history items', async () => {
    fake.options.mode = 'partial';
    const { cookie, user } = await signUpAndLogin(t.app);
    const a = await upload(cookie, refA);
    const r = await generate(cookie, { prompt: 'two of three', images: [a], num_images: 3, max_images: 2, size: '1280x720' });
    const taskId = r.json().seedream_task_id as string;
    expect(await settled(cookie, taskId)).toMatchObject({ status: 'completed', partial: true });
    const jobId = taskId.replace('seedream-', '');
    const generic = (await t.app.inject({ url: `/api/image/status/${jobId}`, headers: { cookie } })).json();
    expect(generic).toMatchObject({ status: 'completed', partial: true });
    expect(generic.images).toHaveLength(2);
    const h = (await t.app.inject({ url: `/api/image/history/${user.id}?source=seedream`, headers: { cookie } })).json();
    expect(h.images).toHaveLength(1);
    expect(h.images[0]).toMatchObject({ source: 'seedream', seedream_task_id: taskId, kling_task_id: null, runpod_job_id: jobId });
    // The bare job id finds the job on the tool's own status route too.
    expect((await status(cookie, jobId)).json()).toMatchObject({ status: 'completed', partial: true });
  });

  it.each([
    ['InvalidParameter.OversizeImage', 400],
    ['InvalidParameter.AspectRatio', 400],
    ['InputImageSensitiveContentDetected', 400],
    ['InternalServiceError', 500],
  ])('vendor error %s: failed with that code, refunded, not retried', async (code, httpStatus) => {
    fake.options.mode = 'error';
    fake.options.errorCode = code;
    fake.options.errorStatus = httpStatus;
    const { cookie, user } = await signUpAndLogin(t.app);
    const a = await upload(cookie, refA);
    const r = await generate(cookie, { prompt: 'x', images: [a], size: '1280x720' });
    expect(r.json().credits).toBe(285);
    const s = await settled(cookie, r.json().seedream_task_id);
    expect(s).toMatchObject({ status: 'failed', urls: [], error: { code } });
    expect((await rowOf(r.json().seedream_task_id)).errorCode).toBe(code); // the column, not a parsed string (decision 034)
    expect(fake.requests).toHaveLength(1);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
    expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(300);
  });

  it('our content screen over the results: one of three flagged → partial, 15 back; all flagged → failed OutputImageSensitiveContentDetected, refunded', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const a = await upload(cookie, refA);
    try {
      let base = t.moderator.seen;
      t.moderator.flagIf = (n) => n === base; // the first result
      const r = await generate(cookie, { prompt: 'three variations', images: [a], num_images: 3, max_images: 2, size: '1280x720' });
      const s = await settled(cookie, r.json().seedream_task_id);
      expect(s).toMatchObject({ status: 'completed', partial: true });
      expect(s.urls).toHaveLength(2);
      expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300 - 45 + 15);

      base = t.moderator.seen;
      t.moderator.flagIf = (n) => n >= base;
      const all = await generate(cookie, { prompt: 'one more', images: [a], size: '1280x720' }, 'en');
      const f = await settled(cookie, all.json().seedream_task_id);
      expect(f).toMatchObject({ status: 'failed', urls: [], error: { code: 'OutputImageSensitiveContentDetected' } });
      expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(270);
      expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(270);
    } finally {
      t.moderator.flagIf = null;
    }
  });

  it('output flagged as sensitive for every image: failed OutputImageSensitiveContentDetected, refunded', async () => {
    fake.options.mode = 'sensitive';
    const { cookie, user } = await signUpAndLogin(t.app);
    const a = await upload(cookie, refA);
    const r = await generate(cookie, { prompt: 'x', images: [a], size: '1280x720' });
    const s = await settled(cookie, r.json().seedream_task_id);
    expect(s).toMatchObject({ status: 'failed', error: { code: 'OutputImageSensitiveContentDetected' } });
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
  });

  it('429 from the vendor is retried with backoff, then succeeds; charged once', async () => {
    fake.options.mode = 'rate-limit';
    fake.options.rateLimitTimes = 2;
    const { cookie, user } = await signUpAndLogin(t.app);
    const a = await upload(cookie, refA);
    const r = await generate(cookie, { prompt: 'x', images: [a], size: '1280x720' });
    const s = await settled(cookie, r.json().seedream_task_id);
    expect(s.status).toBe('completed');
    expect(fake.requests).toHaveLength(3);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(285);
  });

  it('vendor down: failed and refunded well within the job timeout, never left processing', async () => {
    fake.options.mode = 'down';
    const { cookie, user } = await signUpAndLogin(t.app);
    const a = await upload(cookie, refA);
    const started = Date.now();
    const r = await generate(cookie, { prompt: 'x', images: [a], size: '1280x720' });
    const s = await settled(cookie, r.json().seedream_task_id);
    expect(s).toMatchObject({ status: 'failed', error: { code: 'InternalServiceError' } });
    expect(Date.now() - started).toBeLessThan(t.ctx.config.workers.jobTimeoutSeconds * 1000);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
  });

  it('the mask: the vendor gets image 1 tinted where painted; the result keeps the original outside the mask', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    const flat = await sharp({ create: { width: 1280, height: 720, channels: 3, background: { r: 200, g: 200, b: 200 } } }).jpeg({ quality: 95 }).toBuffer();
    const a = await upload(cookie, flat);
    const m = await upload(cookie, await maskPng(1280, 720), 'm.png', 'image/png');
    const r = await generate(cookie, { prompt: 'paint it', images: [a], mask: m, mask_color: 'blue', size: '2048x2048' });
    expect(r.statusCode, r.body).toBe(200);
    const s = await settled(cookie, r.json().seedream_task_id);
    expect(s.status).toBe('completed');
    // A masked edit keeps image 1's frame: the vendor is asked for its size, whatever the page sent.
    expect(fake.requests.at(-1)!.size).toBe('1280x720');
    const sent = Buffer.from(fake.requests.at(-1)!.image[0]!.split(',')[1]!, 'base64');
    const [lr, , lb] = await meanRgb(sent, { left: 100, top: 100, width: 200, height: 200 });
    const [rr, , rb] = await meanRgb(sent, { left: 980, top: 100, width: 200, height: 200 });
    expect(lb! - lr!).toBeGreaterThan(60); // tinted blue on the painted half
    expect(Math.abs(rb! - rr!)).toBeLessThan(6); // untouched elsewhere
    const row = await rowOf(r.json().seedream_task_id);
    expect(row).toMatchObject({ width: 1280, height: 720 });
    const out = await t.ctx.storage.get(row.resultKey!);
    const right = await meanRgb(out, { left: 980, top: 100, width: 200, height: 200 });
    for (const c of right) expect(Math.abs(c - 200)).toBeLessThan(6); // the original outside the mask
    const left = await meanRgb(out, { left: 100, top: 100, width: 200, height: 200 });
    expect(left.some((c) => Math.abs(c - 200) > 15)).toBe(true); // the vendor's result inside
  });

  it('20 parallel runs with credits for 3: exactly 3 charged, at most SEEDREAM_CONCURRENCY vendor calls at once', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    await spend(t.ctx.database.db, { userId: user.id, amount: 300 - 50, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `drain:${user.id}` });
    const a = await upload(cookie, refA);
    fake.options.delayMs = 300;
    const results = await Promise.all(Array.from({ length: 20 }, () => generate(cookie, { prompt: 'x', images: [a], size: '1280x720' })));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(3);
    expect(results.filter((r) => r.statusCode !== 200).every((r) => r.json().code === 'INSUFFICIENT_CREDITS')).toBe(true);
    for (const r of ok) expect((await settled(cookie, r.json().seedream_task_id)).status).toBe('completed');
    expect(fake.maxInFlight).toBeLessThanOrEqual(2);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(5);
    expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(5);
    const rows = await t.ctx.database.db.select().from(jobs).where(and(eq(jobs.userId, user.id), eq(jobs.source, 'seedream')));
    expect(rows).toHaveLength(3);
  });

  it('bad input: a clear error in the caller\'s language, nothing charged, no job', async () => {
    const a0 = await signUpAndLogin(t.app);
    const b0 = await signUpAndLogin(t.app);
    const { cookie, user } = a0;
    const a = await upload(cookie, refA);
    const small = await upload(cookie, await makeJpeg(1000, 900)); // 900 000 px < 921 600
    const emptyMask = await upload(cookie, await maskPng(1280, 720, true), 'm.png', 'image/png');
    const foreign = await upload(b0.cookie, refA);
    const nine = Array.from({ length: 9 }, () => a);
    const cases: [object, number, string][] = [
      [{ prompt: 'x', images: [small] }, 400, 'IMAGE_EDIT_TOO_SMALL'],
      [{ prompt: 'x', images: [a, small] }, 400, 'IMAGE_EDIT_TOO_SMALL'],
      [{ prompt: 'x', images: nine }, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'x', images: [] }, 400, 'VALIDATION_FAILED'],
      [{ prompt: '   ', images: [a] }, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'a\u0000b', images: [a] }, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'x', images: [a], size: '4097x1000' }, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'x', images: [a], size: '0x1000' }, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'x', images: [a], size: '2K' }, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'x', images: [a], seed: 0 }, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'x', images: [a], seed: 100_001 }, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'x', images: [a], num_images: 5 }, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'x', images: [a], max_images: 0 }, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'x', images: [a], mask: emptyMask }, 400, 'MASK_EMPTY'],
      [{ prompt: 'x', images: [foreign] }, 403, 'FORBIDDEN'],
      [{ prompt: 'x', images: [a, foreign] }, 403, 'FORBIDDEN'],
      [{ prompt: 'x', images: ['https://evil.example/x.jpg'] }, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'x', images: [a], extra: 1 }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, code, err] of cases) {
      const r = await generate(cookie, body);
      expect(r.statusCode, `${JSON.stringify(body).slice(0, 120)} → ${r.body}`).toBe(code);
      expect(r.json().code).toBe(err);
    }
    const ko = await generate(cookie, cases[0]![0]);
    expect(ko.json().error).toBe('이미지는 최소 921600 픽셀(960x960) 이상이어야 합니다.');
    expect(ko.json().details).toMatchObject({ width: 1000, height: 900 });
    const en = await generate(cookie, cases[0]![0], 'en');
    expect(en.json().error).toBe('The image must have at least 921600 pixels (960x960).');
    // 9 MB: refused at presign for a seedream-ref upload, in both languages.
    const sha = createHash('sha256').update('x').digest('base64');
    for (const [lang, msg] of [
      ['ko', '파일 크기는 9MB 이하여야 합니다.'],
      ['en', 'The file size must be 9MB or less.'],
    ] as const) {
      const p = await t.app.inject({
        method: 'POST',
        url: '/api/image/presign-upload',
        headers: { cookie, 'accept-language': lang },
        payload: { filename: 'big.jpg', mime: 'image/jpeg', kind: 'seedream-ref', contentLength: IMAGE_EDIT.maxBytes + 1, checksumSha256: sha },
      });
      expect(p.statusCode, p.body).toBe(413);
      expect(p.json()).toMatchObject({ code: 'IMAGE_EDIT_FILE_TOO_LARGE', error: msg });
    }
    const okPresign = await t.app.inject({
      method: 'POST',
      url: '/api/image/presign-upload',
      headers: { cookie },
      payload: { filename: 'ok.jpg', mime: 'image/jpeg', kind: 'seedream-ref', contentLength: IMAGE_EDIT.maxBytes, checksumSha256: sha },
    });
    expect(okPresign.statusCode, okPresign.body).toBe(200);
    const guest = await t.app.inject({ method: 'POST', url: '/api/seedream/generate?async=1', payload: { prompt: 'x', images: [a] } });
    expect(guest.statusCode).toBe(401);
    expect(fake.requests).toHaveLength(0);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
    expect(await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, user.id))).toHaveLength(0);
  });

  it('another user\'s job answers 404 on status and stays out of their history; history search and pages', async () => {
    const a = await signUpAndLogin(t.app);
    const b = await signUpAndLogin(t.app);
    const img = await upload(a.cookie, refA);
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await generate(a.cookie, { prompt: i === 4 ? 'Blue 100%_hat' : `plain ${i}`, images: [img], size: '1280x720' });
      ids.push(r.json().seedream_task_id);
    }
    for (const id of ids) await settled(a.cookie, id);
    expect((await status(b.cookie, ids[0]!)).statusCode).toBe(404);
    expect((await status(b.cookie, 'seedream-00000000-0000-0000-0000-000000000000')).statusCode).toBe(404);
    expect((await status(a.cookie, 'not-a-job')).statusCode).toBe(404);
    const hb = (await t.app.inject({ url: '/api/seedream/history?grouped=1&status=completed&limit=9&offset=0', headers: { cookie: b.cookie } })).json();
    expect(hb.items).toHaveLength(0);
    const p1 = (await t.app.inject({ url: '/api/seedream/history?grouped=1&status=completed&limit=9&offset=0', headers: { cookie: a.cookie } })).json();
    expect(p1.items).toHaveLength(9);
    expect(p1.pagination).toEqual({ nextOffset: 9, hasMore: true });
    expect(p1.items[0].seedream_task_id).toBe(ids[10]);
    const p2 = (await t.app.inject({ url: '/api/seedream/history?grouped=1&status=completed&limit=5&offset=9', headers: { cookie: a.cookie } })).json();
    expect(p2.items).toHaveLength(2);
    expect(p2.pagination).toEqual({ nextOffset: null, hasMore: false });
    const q = (await t.app.inject({ url: `/api/seedream/history?grouped=1&status=completed&limit=9&offset=0&q=${encodeURIComponent('100%_H')}`, headers: { cookie: a.cookie } })).json();
    expect(q.items.map((i: { prompt: string }) => i.prompt)).toEqual(['Blue 100%_hat']);
    const none = (await t.app.inject({ url: `/api/seedream/history?grouped=1&limit=9&offset=0&q=${encodeURIComponent('%')}`, headers: { cookie: a.cookie } })).json();
    expect(none.items.map((i: { prompt: string }) => i.prompt)).toEqual(['Blue 100%_hat']);
  });
});

describe.each(TEST_DATABASES)('image edit without a Seedream key on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers NOT_CONFIGURED in both languages and charges nothing; the config call says so', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const mp = multipartBody('image', 'p.jpg', 'image/jpeg', await makeJpeg(1280, 720));
    const img = (await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json().imageUrl as string;
    for (const [lang, msg] of [
      ['ko', '이 기능은 아직 설정되지 않았습니다.'],
      ['en', 'This feature is not configured yet.'],
    ] as const) {
      const r = await t.app.inject({ method: 'POST', url: '/api/seedream/generate?async=1', headers: { cookie, 'accept-language': lang }, payload: { prompt: 'x', images: [img] } });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({ code: 'NOT_CONFIGURED', error: msg });
    }
    expect((await t.app.inject({ url: '/api/seedream/config' })).json()).toEqual({ success: true, configured: false, costPerImage: 15, autoPromptCost: 5 });
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
    expect(await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, user.id))).toHaveLength(0);
  });
});
