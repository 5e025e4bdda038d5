import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { loadConfig } from '../../config';
import { creditLedger, images } from '../../db/schema';
import { JOB_SCHEMAS, ToolJobPayloadSchema } from '../../jobs/job-map';
import { echoTool, withEchoTool } from '../../../test/fakes/echo-tool';
import { createFakeEngine } from '../../../test/fakes/fake-engine';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createContext, createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { getBalance, ledgerSums } from '../credits/credits.service';
import { recoverStuckJobs } from './tool-jobs.recovery';
import { createToolJob } from './tool-jobs.service';
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
  const row = async (imageId: number) => (await t.ctx.database.db.select().from(images).where(eq(images.id, imageId)))[0]!;

  it('charges, runs and completes a job of a tool that is not retouch', async () => {
    const { userId, imageUrl } = await userWithPhoto();
    const job = await createToolJob(t.ctx, echoTool, userId, { image: imageUrl, price: 30, mode: 'ok' });
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
    const job = await createToolJob(t.ctx, echoTool, userId, { image: imageUrl, price: 45, mode: 'fail' });
    expect(job.credits).toBe(255);
    const failed = await waitFor(async () => {
      const r = await row(job.imageId);
      return r.status === 'failed' ? r : undefined;
    });
    expect(failed.error).toMatch(/ECHO_FAILED/);
    expect(await getBalance(t.ctx.database.db, userId)).toMatchObject({ total: 300 });
    expect(await ledgerSums(t.ctx.database.db, userId)).toMatchObject({ total: 300 });
    const refunds = (await t.ctx.database.db.select().from(creditLedger).where(eq(creditLedger.userId, userId))).filter((e) => e.kind === 'refund');
    expect(refunds).toHaveLength(1);
  });

  it('a second upload the input names (a mask) must be the caller\'s own; the run reads it', async () => {
    const a = await userWithPhoto();
    const b = await userWithPhoto();
    await expect(createToolJob(t.ctx, echoTool, b.userId, { image: b.imageUrl, mask: a.imageUrl, price: 10, mode: 'ok' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await getBalance(t.ctx.database.db, b.userId)).total).toBe(300);
    const job = await createToolJob(t.ctx, echoTool, a.userId, { image: a.imageUrl, mask: a.imageUrl, price: 10, mode: 'ok' });
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
    await expect(createToolJob(t.ctx, echoTool, b.userId, { image: a.imageUrl, price: 10, mode: 'ok' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(createToolJob(t.ctx, echoTool, a.userId, { image: a.imageUrl, price: 301, mode: 'ok' })).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect((await getBalance(t.ctx.database.db, a.userId)).total).toBe(300);
    expect((await getBalance(t.ctx.database.db, b.userId)).total).toBe(300);
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
    const queued = await createToolJob(t.ctx, echoTool, user.id, { image: imageUrl, price: 20, mode: 'ok' });
    // The kernel's tests take a real tool from the context, as the kernel does (it never imports a tool: decision 039).
    const retouchTool = t.ctx.tools.find((x) => x.name === 'retouch')!;
    const retouch = await createToolJob(t.ctx, retouchTool, user.id, retouchTool.input.parse({ image: imageUrl }));
    // Both are queued in their own queues: neither is touched (asking upscale's queue about the echo job
    // would find nothing and refund a job that is still waiting).
    expect(await recoverStuckJobs(t.ctx, { singleOwner: true, maxAgeMs: 3_600_000 })).toEqual([]);
    const [echoRow] = await t.ctx.database.db.select().from(images).where(eq(images.id, queued.imageId));
    expect(echoRow!.jobName).toBe('test-echo');
    expect(await t.ctx.queue.jobInfo('test-echo', echoRow!.queueJobId!)).toMatchObject({ state: 'created' });
    // The echo job's queue entry is lost (e.g. archived away by hand): its own definition's queue says so.
    await t.ctx.database.db.update(images).set({ queueJobId: '00000000-0000-4000-8000-000000000000' }).where(eq(images.id, queued.imageId));
    expect(await recoverStuckJobs(t.ctx, { singleOwner: true, maxAgeMs: 3_600_000 })).toEqual([queued.imageId]);
    expect(await recoverStuckJobs(t.ctx, { singleOwner: true, maxAgeMs: 3_600_000 })).toEqual([]);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300 - retouch.cost);
    const rows = await t.ctx.database.db.select({ n: count() }).from(images).where(eq(images.status, 'processing'));
    expect(rows[0]!.n).toBe(1);
  });
});

describe('the worker refuses to start', () => {
  it('when a declared job name has no handler', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/dewy-no-handler' });
    const db = await TEST_DATABASES[0]!.open();
    const ctx = await createContext(config, { database: db, engine: createFakeEngine(), jobSchemas: { ...JOB_SCHEMAS, 'test-echo': ToolJobPayloadSchema } });
    try {
      await expect(ctx.queue.startWorkers({ concurrency: 1 })).rejects.toThrow(/no handler for job test-echo/);
    } finally {
      await ctx.queue.stop({ graceful: false, timeoutMs: 1000 });
      await db.dispose();
    }
  });
});
