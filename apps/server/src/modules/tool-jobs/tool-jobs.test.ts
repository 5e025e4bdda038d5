import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { loadConfig } from '../../config';
import { creditLedger, jobs, uploads } from '../../db/schema';
import { JOB_SCHEMAS, ToolJobPayloadSchema } from '../../jobs/job-map';
import { echoFileTool, echoTool, withEchoTool } from '../../../test/fakes/echo-tool';
import { createFakeEngine } from '../../../test/fakes/fake-engine';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, makePng, multipartBody } from '../../../test/helpers/images';
import { createContext, createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { getBalance, ledgerSums } from '../credits';
import { recoverStuckJobs } from './tool-jobs.recovery';
import { createToolJob, userActor } from './tool-jobs.service';
import { waitFor } from '../../../test/helpers/wait';


describe.each(TEST_DATABASES)('the paid-job kernel with a second tool on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { workers: true, ...withEchoTool });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function userWithPhoto() {
    const { cookie, user } = await signUpAndLogin(t.app);
    const mp = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(320, 240));
    const up = (await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json();
    return { cookie, userId: user.id, imageUrl: up.imageUrl as string };
  }
  const row = async (imageId: number) => (await t.ctx.database.db.select().from(jobs).where(eq(jobs.id, imageId)))[0]!;

  it('charges, runs and completes a job of a tool that is not retouch', async () => {
    const { userId, imageUrl } = await userWithPhoto();
    const job = await createToolJob(t.ctx, echoTool, userActor(userId), { image: imageUrl, price: 30, mode: 'ok' });
    expect(job).toMatchObject({ success: true, status: 'processing', cost: 30, credits: 270 });
    const done = await waitFor(async () => {
      const r = await row(job.imageId);
      return r.status === 'completed' ? r : undefined;
    });
    expect(done).toMatchObject({ source: 'product_try', jobName: 'test-echo', engine: 'echo', width: 320, height: 240, meta: { echoed: true } });
    expect(done.resultKey).toMatch(new RegExp(`^u/${userId}/results/${job.jobId}\\.png$`));
    expect(await t.ctx.storage.exists(done.resultKey!)).toBe(true);
    expect(await getBalance(t.ctx.database.db, userId)).toMatchObject({ total: 270 });
  });

  it('fails and refunds a failing job of that tool exactly once', async () => {
    const { userId, imageUrl } = await userWithPhoto();
    const job = await createToolJob(t.ctx, echoTool, userActor(userId), { image: imageUrl, price: 45, mode: 'fail' });
    expect(job.credits).toBe(255);
    const failed = await waitFor(async () => {
      const r = await row(job.imageId);
      return r.status === 'failed' ? r : undefined;
    });
    expect(failed.error).toMatch(/ECHO_FAILED/);
    // An untyped error is JOB_FAILED; its message is only the detail (decision 034).
    expect(failed.errorCode).toBe('JOB_FAILED');
    expect(await getBalance(t.ctx.database.db, userId)).toMatchObject({ total: 300 });
    expect(await ledgerSums(t.ctx.database.db, userId)).toMatchObject({ total: 300 });
    const refunds = (await t.ctx.database.db.select().from(creditLedger).where(eq(creditLedger.userId, userId))).filter((e) => e.kind === 'refund');
    expect(refunds).toHaveLength(1);
  });

  it('a failed job stores its typed reason in error_code, and the status answer names it as before (decision 034)', async () => {
    const { cookie, userId, imageUrl } = await userWithPhoto();
    const typed = await createToolJob(t.ctx, echoTool, userActor(userId), { image: imageUrl, price: 10, mode: 'refuse' });
    const untyped = await createToolJob(t.ctx, echoTool, userActor(userId), { image: imageUrl, price: 10, mode: 'fail' });
    const failed = async (imageId: number) =>
      waitFor(async () => {
        const r = await row(imageId);
        return r.status === 'failed' ? r : undefined;
      });
    // An AppError: its code in error_code, its message (only) in error.
    expect(await failed(typed.imageId)).toMatchObject({ errorCode: 'VENDOR_BUSY', error: 'the echo vendor is busy', actorKind: 'user', apiKeyId: null, batchId: null });
    // A plain Error: JOB_FAILED, the message kept as the detail.
    expect(await failed(untyped.imageId)).toMatchObject({ errorCode: 'JOB_FAILED', error: 'asked to fail (ECHO_FAILED)' });
    const status = async (jobId: string) => (await t.app.inject({ url: `/api/image/status/${jobId}`, headers: { cookie } })).json();
    expect(await status(typed.jobId)).toMatchObject({ status: 'failed', error: 'VENDOR_BUSY' });
    expect(await status(untyped.jobId)).toMatchObject({ status: 'failed', error: 'JOB_FAILED' });
    expect(await getBalance(t.ctx.database.db, userId)).toMatchObject({ total: 300 });
  });

  it('a second upload the input names (a mask) must be the caller\'s own; the run reads it', async () => {
    const a = await userWithPhoto();
    const b = await userWithPhoto();
    await expect(createToolJob(t.ctx, echoTool, userActor(b.userId), { image: b.imageUrl, mask: a.imageUrl, price: 10, mode: 'ok' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await getBalance(t.ctx.database.db, b.userId)).total).toBe(300);
    const job = await createToolJob(t.ctx, echoTool, userActor(a.userId), { image: a.imageUrl, mask: a.imageUrl, price: 10, mode: 'ok' });
    expect(job.cost).toBe(11);
    const done = await waitFor(async () => {
      const r = await row(job.imageId);
      return r.status === 'completed' ? r : undefined;
    });
    expect((done.meta as { maskBytes?: number }).maskBytes).toBeGreaterThan(0);
  });

  it('refuses another user\'s upload and short credits for any tool, charging nothing', async () => {
    const a = await userWithPhoto();
    const b = await userWithPhoto();
    await expect(createToolJob(t.ctx, echoTool, userActor(b.userId), { image: a.imageUrl, price: 10, mode: 'ok' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(createToolJob(t.ctx, echoTool, userActor(a.userId), { image: a.imageUrl, price: 301, mode: 'ok' })).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect((await getBalance(t.ctx.database.db, a.userId)).total).toBe(300);
    expect((await getBalance(t.ctx.database.db, b.userId)).total).toBe(300);
  });
  /** The caller's stored originals on disk (local storage), whatever their rows say. */
  const originalsOnDisk = (userId: number) => {
    const dir = path.join(t.ctx.config.storage.filesDir, 'u', String(userId), 'originals');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  const fileUploads = (userId: number) => t.ctx.database.db.select().from(uploads).where(and(eq(uploads.userId, userId), eq(uploads.kind, 'echo-file')));

  it('a tool that takes a file: checked, stored as a confirmed upload before the charge, and run on; refusals leave no file behind', async () => {
    const { user } = await signUpAndLogin(t.app);
    const file = (bytes: Buffer) => ({ files: { file: { filename: 'a.png', bytes } } });
    const png = await makePng(200, 100);
    const job = await createToolJob(t.ctx, echoFileTool, userActor(user.id), { photo: null, price: 25, mode: 'ok' }, file(png));
    expect(job).toMatchObject({ success: true, status: 'processing', cost: 25, credits: 275 });
    const done = await waitFor(async () => {
      const r = await row(job.imageId);
      return r.status === 'completed' ? r : undefined;
    });
    expect(done).toMatchObject({ engine: 'echo', width: 200, height: 100, originalWidth: 200, originalHeight: 100 });
    const [stored] = await fileUploads(user.id);
    expect(stored).toMatchObject({ status: 'confirmed', key: done.originalKey });
    expect(originalsOnDisk(user.id)).toHaveLength(1);

    // Refused by the tool's check before anything is stored; by the charge (more than the balance) and by
    // the tool's rules after the file was stored: the stored file is discarded, row and object.
    await expect(createToolJob(t.ctx, echoFileTool, userActor(user.id), { photo: null, price: 1, mode: 'ok' }, file(Buffer.from('not an image')))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(createToolJob(t.ctx, echoFileTool, userActor(user.id), { photo: null, price: 1, mode: 'ok' }, {})).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(createToolJob(t.ctx, echoFileTool, userActor(user.id), { photo: null, price: 276, mode: 'ok' }, file(png))).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    await expect(createToolJob(t.ctx, echoFileTool, userActor(user.id), { photo: null, price: 1, mode: 'refuse' }, file(png))).rejects.toMatchObject({ code: 'UPSCALE_BLOCKED' });
    expect(await fileUploads(user.id)).toHaveLength(1);
    expect(originalsOnDisk(user.id)).toHaveLength(1);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(275);
  });

  it('a tool that takes a file: an Idempotency-Key replays by the file\'s bytes (parallel retries store and charge once); other bytes are 422', async () => {
    const { user } = await signUpAndLogin(t.app);
    const png = await makePng(120, 90);
    const send = (bytes: Buffer, key = 'file-key-1') => createToolJob(t.ctx, echoFileTool, userActor(user.id), { photo: null, price: 30, mode: 'ok' }, { idempotencyKey: key, files: { file: { filename: 'p.png', bytes } } });
    const burst = await Promise.all(Array.from({ length: 5 }, () => send(png)));
    expect(new Set(burst.map((j) => j.jobId)).size).toBe(1);
    const later = await send(png);
    expect(later).toMatchObject({ jobId: burst[0]!.jobId, cost: 30, credits: 270 });
    await expect(send(await makePng(121, 90))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await fileUploads(user.id)).toHaveLength(1);
    expect(originalsOnDisk(user.id)).toHaveLength(1);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(270);
    expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(270);
  });

  it('a tool whose engine capability is not configured answers NOT_CONFIGURED before anything is stored or charged', async () => {
    const { userId, imageUrl } = await userWithPhoto();
    const echo = t.ctx.engines.get('echo');
    t.ctx.engines.set('echo', null);
    try {
      await expect(createToolJob(t.ctx, echoTool, userActor(userId), { image: imageUrl, price: 10, mode: 'ok' })).rejects.toMatchObject({ code: 'NOT_CONFIGURED' });
      await expect(createToolJob(t.ctx, echoFileTool, userActor(userId), { photo: null, price: 10, mode: 'ok' }, { files: { file: { filename: 'a.png', bytes: await makePng(50, 50) } } })).rejects.toMatchObject({
        code: 'NOT_CONFIGURED',
      });
    } finally {
      t.ctx.engines.set('echo', echo);
    }
    expect((await getBalance(t.ctx.database.db, userId)).total).toBe(300);
    expect(await fileUploads(userId)).toHaveLength(0);
    expect(await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, userId))).toHaveLength(0);
  });
});

describe.each(TEST_DATABASES)('recovery per row\'s own job name on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { workers: false, ...withEchoTool }); // no workers: jobs stay queued
  });
  afterAll(async () => {
    await t?.close();
  });

  it('asks the echo queue about an echo job: a queued one is left to run, a lost one is refunded once', async () => {
    const { user, cookie } = await signUpAndLogin(t.app);
    const mp = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(200, 200));
    const { imageUrl } = (await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json();
    const queued = await createToolJob(t.ctx, echoTool, userActor(user.id), { image: imageUrl, price: 20, mode: 'ok' });
    // The kernel's tests take a real tool from the context, as the kernel does (it never imports a tool: decision 039).
    const retouchTool = t.ctx.tools.find((x) => x.name === 'retouch')!;
    const retouch = await createToolJob(t.ctx, retouchTool, userActor(user.id), retouchTool.input.parse({ image: imageUrl }));
    // Both are queued in their own queues: neither is touched (asking upscale's queue about the echo job
    // would find nothing and refund a job that is still waiting).
    expect(await recoverStuckJobs(t.ctx, { singleOwner: true, maxAgeMs: 3_600_000 })).toEqual([]);
    const [echoRow] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.id, queued.imageId));
    expect(echoRow!.jobName).toBe('test-echo');
    expect(await t.ctx.queue.jobInfo('test-echo', echoRow!.queueJobId!)).toMatchObject({ state: 'created' });
    // The echo job's queue entry is lost (e.g. archived away by hand): its own definition's queue says so.
    await t.ctx.database.db.update(jobs).set({ queueJobId: '00000000-0000-4000-8000-000000000000' }).where(eq(jobs.id, queued.imageId));
    expect(await recoverStuckJobs(t.ctx, { singleOwner: true, maxAgeMs: 3_600_000 })).toEqual([queued.imageId]);
    expect(await recoverStuckJobs(t.ctx, { singleOwner: true, maxAgeMs: 3_600_000 })).toEqual([]);
    const [lost] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.id, queued.imageId));
    expect(lost).toMatchObject({ status: 'failed', errorCode: 'JOB_LOST', error: 'queue state missing' });
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300 - retouch.cost);
    const rows = await t.ctx.database.db.select({ n: count() }).from(jobs).where(eq(jobs.status, 'processing'));
    expect(rows[0]!.n).toBe(1);
  });
});

describe.each(TEST_DATABASES)('a job past its timeout on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // JOB_TIMEOUT_SECONDS 2: the queue aborts a running job after 1 s; only that can end a `hang` job.
    t = await createTestApp(kind, { JOB_TIMEOUT_SECONDS: '2' }, { workers: true, ...withEchoTool });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is failed with error_code JOB_TIMEOUT, whatever the run threw on the way out, and refunded', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const mp = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(200, 200));
    const { imageUrl } = (await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json();
    const job = await createToolJob(t.ctx, echoTool, userActor(user.id), { image: imageUrl, price: 20, mode: 'hang' });
    const failed = await waitFor(async () => {
      const [r] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.id, job.imageId));
      return r?.status === 'failed' ? r : undefined;
    });
    expect(failed).toMatchObject({ errorCode: 'JOB_TIMEOUT', error: 'JOB_TIMEOUT' });
    expect((await t.app.inject({ url: `/api/image/status/${job.jobId}`, headers: { cookie } })).json()).toMatchObject({ status: 'failed', error: 'JOB_FAILED' });
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
  }, 120_000);
});

describe('the worker refuses to start', () => {
  it('when a declared job name has no handler', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/dewy-no-handler' });
    const db = await TEST_DATABASES[0]!.open();
    const ctx = await createContext(config, { database: db, engines: { retouch: createFakeEngine() }, jobSchemas: { ...JOB_SCHEMAS, 'test-echo': ToolJobPayloadSchema } });
    try {
      await expect(ctx.queue.startWorkers({ concurrency: 1 })).rejects.toThrow(/no handler for job test-echo/);
    } finally {
      await ctx.queue.stop({ graceful: false, timeoutMs: 1000 });
      await db.dispose();
    }
  });
});
