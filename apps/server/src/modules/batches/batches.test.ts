import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { eq } from 'drizzle-orm';
import type { BatchView } from '@dewy/contracts';
import { creditLedger, jobs } from '../../db/schema';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { grant } from '../credits';
import { toolJobHandler } from '../tool-jobs';

/** Batch retouch on the page (issue 24, decision 040 §4) on each database; jobs stay queued until a test runs them. */
describe.each(TEST_DATABASES)('batches on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { workers: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function upload(cookie: string, width = 320, height = 240) {
    const form = multipartBody('image', 'p.jpg', 'image/jpeg', await makeJpeg(width, height));
    const res = await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...form.headers }, payload: form.payload });
    if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`upload ${res.statusCode} ${res.body}`);
    return res.json().imageUrl as string;
  }
  const create = (cookie: string, body: object, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url: '/api/batches', headers: { cookie, ...headers }, payload: body });
  const options = { scale_factor: 1 };
  /** The charges of a user (one spend may take from two buckets: one ledger row each, one idempotency key). */
  const spends = async (userId: number) => [...new Set((await t.ctx.database.db.select().from(creditLedger).where(eq(creditLedger.userId, userId))).filter((e) => e.kind === 'spend').map((e) => e.idempotencyKey))];
  const run = async (jobId: string) => {
    const [row] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, jobId));
    await toolJobHandler(t.ctx, t.ctx.tools.find((x) => x.jobName === 'upscale')!, t.app.log).handle({ imageId: row!.id }, { signal: new AbortController().signal } as never);
  };

  it('a batch of 20 with credits for 12: the first 12 are charged once each, the other 8 refused for credits, nothing half-charged', async () => {
    const u = await signUpAndLogin(t.app);
    const image = await upload(u.cookie);
    // 300 welcome credits + 660 = 960 = 12 photos of 80 (under 2500 px, ×1).
    await grant(t.ctx.database.db, { userId: u.user.id, amount: 660, bucket: 'bonus', reason: { code: 'affiliate_reward' }, idempotencyKey: `batch-test-${u.user.id}` });
    const photos = Array.from({ length: 20 }, (_, i) => ({ image, name: `photo-${i + 1}.jpg` }));
    const res = await create(u.cookie, { tool: 'upscale', options, photos });
    expect(res.statusCode, res.body).toBe(200);
    const { batch, credits } = res.json() as { batch: BatchView; credits: number };
    expect(batch.counts).toEqual({ pending: 0, processing: 12, completed: 0, failed: 0, refused: 8 });
    expect(batch.photos.slice(0, 12).every((p) => p.status === 'processing' && p.cost === 80 && p.jobId)).toBe(true);
    expect(batch.photos.slice(12).every((p) => p.status === 'refused' && p.error === 'INSUFFICIENT_CREDITS' && p.cost === 0 && p.jobId === null)).toBe(true);
    expect(batch.charged).toBe(960);
    expect(credits).toBe(0);
    expect(await spends(u.user.id)).toHaveLength(12);
    const rows = await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, u.user.id));
    expect(rows).toHaveLength(12);
    expect(rows.every((r) => r.batchId === batch.id)).toBe(true);
  });

  it('marks a photo over the 4000 px rule and another account\'s upload with the reason, and starts the rest', async () => {
    const u = await signUpAndLogin(t.app);
    const other = await signUpAndLogin(t.app);
    const small = await upload(u.cookie);
    const big = await upload(u.cookie, 1000, 1000);
    const foreign = await upload(other.cookie);
    const res = await create(u.cookie, { tool: 'upscale', options: { scale_factor: 2 }, photos: [{ image: big, name: 'big.jpg' }, { image: foreign, name: 'theirs.jpg' }, { image: small, name: 'small.jpg' }] });
    expect(res.statusCode, res.body).toBe(200);
    const { batch } = res.json() as { batch: BatchView };
    expect(batch.photos.map((p) => [p.name, p.status, p.error])).toEqual([
      ['big.jpg', 'refused', 'UPSCALE_BLOCKED'],
      ['theirs.jpg', 'refused', 'FORBIDDEN'],
      ['small.jpg', 'processing', null],
    ]);
    expect(await spends(u.user.id)).toHaveLength(1);
    // Bad requests change nothing: no photos, 51 photos, a control character in a name, another tool.
    const before = (await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, u.user.id))).length;
    for (const body of [
      { tool: 'upscale', options, photos: [] },
      { tool: 'upscale', options, photos: Array.from({ length: 51 }, () => ({ image: small, name: 'a.jpg' })) },
      { tool: 'upscale', options, photos: [{ image: small, name: 'a\u0000b.jpg' }] },
      { tool: 'face-edit', options, photos: [{ image: small, name: 'a.jpg' }] },
    ]) {
      const bad = await create(u.cookie, body, { 'accept-language': 'en' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_FAILED');
    }
    expect(await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, u.user.id))).toHaveLength(before);
  });

  it('10 parallel POSTs under one Idempotency-Key make one batch, each photo charged once', async () => {
    const u = await signUpAndLogin(t.app);
    const image = await upload(u.cookie);
    const body = { tool: 'upscale', options, photos: [{ image, name: 'a.jpg' }, { image, name: 'b.jpg' }, { image, name: 'c.jpg' }] };
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(u.cookie, body, { 'idempotency-key': 'batch-key-0001' })));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    expect(new Set(answers.map((a) => a.json().batch.id)).size).toBe(1);
    expect(await spends(u.user.id)).toHaveLength(3);
    expect(await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, u.user.id))).toHaveLength(3);
  });

  it('pause refunds the queued photos at once, resume starts them again; a failed photo is retried alone; another account sees nothing', async () => {
    const u = await signUpAndLogin(t.app);
    const image = await upload(u.cookie);
    const { batch } = (await create(u.cookie, { tool: 'upscale', options, photos: [{ image, name: 'one.jpg' }, { image, name: 'two.jpg' }, { image, name: 'three.jpg' }] })).json() as { batch: BatchView };
    await run(batch.photos[0]!.jobId!); // the first one ran before the pause
    const paused = (await t.app.inject({ method: 'POST', url: `/api/batches/${batch.id}/cancel`, headers: { cookie: u.cookie } })).json() as { batch: BatchView; credits: number };
    expect(paused.batch.photos.map((p) => [p.status, p.error])).toEqual([
      ['completed', null],
      ['failed', 'JOB_CANCELLED'],
      ['failed', 'JOB_CANCELLED'],
    ]);
    expect(paused.credits).toBe(300 - 80);
    expect(paused.batch.charged).toBe(80);
    // Pausing twice refunds nothing more.
    expect((await t.app.inject({ method: 'POST', url: `/api/batches/${batch.id}/cancel`, headers: { cookie: u.cookie } })).json().credits).toBe(220);

    const resumed = (await t.app.inject({ method: 'POST', url: `/api/batches/${batch.id}/resume`, headers: { cookie: u.cookie } })).json() as { batch: BatchView; credits: number };
    expect(resumed.batch.photos.map((p) => [p.status, p.attempts])).toEqual([
      ['completed', 1],
      ['processing', 2],
      ['processing', 2],
    ]);
    expect(resumed.credits).toBe(300 - 240);

    // A failed photo (refunded) is retried alone; a completed one is not retried.
    await t.app.inject({ method: 'POST', url: `/api/batches/${batch.id}/cancel`, headers: { cookie: u.cookie } });
    const retried = (await t.app.inject({ method: 'POST', url: `/api/batches/${batch.id}/photos/2/retry`, headers: { cookie: u.cookie } })).json() as { batch: BatchView; credits: number };
    expect(retried.batch.photos.map((p) => p.status)).toEqual(['completed', 'failed', 'processing']);
    expect(retried.credits).toBe(300 - 160);
    expect((await t.app.inject({ method: 'POST', url: `/api/batches/${batch.id}/photos/0/retry`, headers: { cookie: u.cookie } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: `/api/batches/${batch.id}/photos/9/retry`, headers: { cookie: u.cookie } })).statusCode).toBe(404);

    const other = await signUpAndLogin(t.app);
    for (const [method, url] of [
      ['GET', `/api/batches/${batch.id}`],
      ['POST', `/api/batches/${batch.id}/cancel`],
      ['POST', `/api/batches/${batch.id}/resume`],
      ['POST', `/api/batches/${batch.id}/photos/1/retry`],
      ['GET', `/api/batches/${batch.id}/zip`],
      ['GET', '/api/batches/not-a-batch'],
    ] as const) {
      expect((await t.app.inject({ method, url, headers: { cookie: other.cookie } })).statusCode, url).toBe(404);
    }
    expect((await t.app.inject({ url: '/api/batches', headers: { cookie: other.cookie } })).json().batches).toEqual([]);
    expect((await t.app.inject({ url: `/api/batches/${batch.id}` })).statusCode).toBe(401);
  });

  it('one zip of the finished results, streamed, each entry named after the original file, every entry a decodable image', async () => {
    const u = await signUpAndLogin(t.app);
    const image = await upload(u.cookie);
    const names = ['가족 사진.jpeg', 'IMG_0001.JPG', 'IMG_0001.jpg', 'not-run.png'];
    const { batch } = (await create(u.cookie, { tool: 'upscale', options, photos: names.map((name) => ({ image, name })) })).json() as { batch: BatchView };
    for (const p of batch.photos.slice(0, 3)) await run(p.jobId!);
    const res = await t.app.inject({ url: `/api/batches/${batch.id}/zip`, headers: { cookie: u.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="dewy-batch-[0-9a-f]{8}\.zip"$/);
    const zip = await yauzl.fromBufferPromise(res.rawPayload, { lazyEntries: true });
    const entries: { name: string; width: number }[] = [];
    for await (const entry of zip.eachEntry()) {
      const chunks: Buffer[] = [];
      for await (const c of await zip.openReadStreamPromise(entry)) chunks.push(c as Buffer);
      const meta = await sharp(Buffer.concat(chunks)).metadata();
      entries.push({ name: entry.fileName, width: meta.width! });
    }
    expect(entries.map((e) => e.name)).toEqual(['가족 사진.jpg', 'IMG_0001.jpg', 'IMG_0001 (2).jpg']);
    expect(entries.every((e) => e.width > 0)).toBe(true);
    const listed = (await t.app.inject({ url: '/api/batches', headers: { cookie: u.cookie } })).json() as { batches: { id: string; photoCount: number; counts: { completed: number } }[] };
    expect(listed.batches[0]).toMatchObject({ id: batch.id, photoCount: 4, counts: { completed: 3 } });
    // The history's items name their batch, so the page shows the batch as one entry.
    const history = (await t.app.inject({ url: `/api/image/history/${u.user.id}?source=upscale`, headers: { cookie: u.cookie } })).json() as { images: { batch_id: string | null }[] };
    expect(history.images.length).toBeGreaterThanOrEqual(3);
    expect(history.images.every((i) => i.batch_id === batch.id)).toBe(true);
  });
});
