import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import type { AppContext } from '../../context';
import { creditLedger, jobs } from '../../db/schema';
import { startHousekeeping } from '../../housekeeping';
import { startFakeRunpod, type FakeRunpod } from '../../../test/fakes/fake-runpod.server';
import { createFakeEngine } from '../../../test/fakes/fake-engine';
import { createMigratedPostgresDatabase, TEST_DATABASES } from '../../../test/helpers/databases';
import { openJobEvents } from '../../../test/helpers/event-stream';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { closeContext, createContext, createTestApp, signUpAndLogin, useOutboxOf, type TestApp } from '../../../test/helpers/test-app';
import { getBalance } from '../credits';
import { recoverStuckJobs } from './tool-jobs.recovery';
import { freePort } from '../../../test/helpers/wait';

const SERVER_ROOT = path.resolve(import.meta.dirname, '../../..');
/** Heartbeat, staleness and reaper intervals (ms) of the cross-process suite's API and worker. */
const CHAIN = { heartbeatMs: 500, staleMs: 5_000, reaperIntervalMs: 500 };


async function uploadPhoto(app: FastifyInstance, cookie: string, w = 300, h = 200): Promise<string> {
  const mp = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(w, h));
  const res = await app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload });
  return res.json().imageUrl;
}

describe.each(TEST_DATABASES)('the job event stream on $name', (kind) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { workers: true });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('needs a session', async () => {
    const res = await fetch(`${base}/api/jobs/events`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
  });

  it('pushes progress and the final status of a user\'s own jobs, and nothing of anyone else\'s', async () => {
    const a = await signUpAndLogin(t.app);
    const b = await signUpAndLogin(t.app);
    const streamA = await openJobEvents(base, a.cookie);
    const streamB = await openJobEvents(base, b.cookie);
    try {
      expect(streamA.status).toBe(200);
      expect(streamA.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const imageA = await uploadPhoto(t.app, a.cookie);
      const imageB = await uploadPhoto(t.app, b.cookie);
      t.engine.delayMs = 200;
      const jobA = (await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie: a.cookie }, payload: { input: { image: imageA } } })).json();
      const jobB = (await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie: b.cookie }, payload: { input: { image: imageB } } })).json();
      const doneA = await streamA.waitFor((e) => e.jobId === jobA.jobId && e.type === 'status');
      const doneB = await streamB.waitFor((e) => e.jobId === jobB.jobId && e.type === 'status');
      expect(doneA.event).toEqual({ type: 'status', jobId: jobA.jobId, source: 'upscale', status: 'completed' });
      expect(doneB.event).toMatchObject({ status: 'completed' });
      const progressA = streamA.received.filter((r) => r.event.type === 'progress' && r.event.jobId === jobA.jobId);
      expect(progressA.length).toBeGreaterThan(0);
      for (const p of progressA) expect(p.event).toMatchObject({ source: 'upscale', fraction: expect.any(Number) });
      // the status answer is ready the moment the event arrives
      const status = (await t.app.inject({ url: `/api/image/status/${jobA.jobId}`, headers: { cookie: a.cookie } })).json();
      expect(status.status).toBe('completed');
      expect(streamA.received.every((r) => r.event.jobId === jobA.jobId)).toBe(true);
      expect(streamB.received.every((r) => r.event.jobId === jobB.jobId)).toBe(true);
    } finally {
      t.engine.delayMs = 0;
      await streamA.close();
      await streamB.close();
    }
  });
});

/** Starts `npm run worker`'s entry (src/worker.ts) as its own process and resolves once it runs. */
function startWorkerProcess(env: Record<string, string>): { child: ChildProcess; ready: Promise<void>; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: SERVER_ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('worker running')) resolve();
    });
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`worker exited ${code}: ${out}`)));
    setTimeout(() => reject(new Error(`worker did not start: ${out}`)), 60_000);
  });
  return { child, ready, output: () => out };
}

describe.skipIf(!TEST_DATABASES.some((k) => k.name === 'postgres'))('a separate `npm run worker` process on PostgreSQL', () => {
  let fake: FakeRunpod;
  let ctx: AppContext;
  let app: FastifyInstance;
  let base: string;
  let env: Record<string, string>;
  /** One worker process for both tests (a start is tsx + the app, seconds): the second test kills it. */
  let w: ReturnType<typeof startWorkerProcess>;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    fake = await startFakeRunpod({ apiKey: 'rp-key', pollsBeforeDone: 1 });
    const pg = await createMigratedPostgresDatabase(); // migrated: the worker process starts at once
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-xproc-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      DATABASE_URL: pg.url,
      DATA_DIR: dataDir,
      APP_SECRET: 'cross-process-secret-0123456789abcdef',
      PUBLIC_URL: base,
      RETOUCH_ENGINE: 'runpod',
      RUNPOD_ENDPOINT_URL: fake.endpointUrl,
      RUNPOD_API_KEY: 'rp-key',
      RUNPOD_POLL_INTERVAL_MS: '50',
      // The dead-worker chain on short intervals (production: 10 s / 30 s / 15 s, checked below): the same
      // heartbeat → staleness → reaper path, refunded in ≈6 s instead of ≈45 s. Staleness stays 10 beats,
      // so a worker delayed by load is not called dead.
      JOB_HEARTBEAT_MS: String(CHAIN.heartbeatMs),
      JOB_STALE_MS: String(CHAIN.staleMs),
      JOB_REAPER_INTERVAL_MS: String(CHAIN.reaperIntervalMs),
    };
    // The API process: no workers of its own, so every job runs in the separate worker.
    ctx = await createContext(loadConfig({ ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent', RUN_WORKERS: 'false' }), { engines: { retouch: createFakeEngine() } });
    app = await buildApp(ctx, { logger: false });
    useOutboxOf(app, dataDir); // sign-ups are verified through the outbox, as users do (welcome credits)
    await app.listen({ host: '127.0.0.1', port });
    cleanups.push(async () => {
      await app.close();
      await closeContext(ctx, { graceful: false });
      await pg.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      await fake.close();
    });
    w = startWorkerProcess(env);
    cleanups.push(async () => {
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
    });
  });
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('a job finished by the worker reaches the API\'s stream, by NOTIFY', async () => {
    await w.ready;
    const { cookie } = await signUpAndLogin(app);
    const stream = await openJobEvents(base, cookie);
    try {
      const image = await uploadPhoto(app, cookie);
      const job = (await app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image } } })).json();
      const done = await stream.waitFor((e) => e.type === 'status' && e.jobId === job.jobId, 30_000);
      expect(done.event).toMatchObject({ status: 'completed' });
      const [row] = await ctx.database.db.select().from(jobs).where(eq(jobs.jobId, job.jobId));
      const latencyMs = done.at - row!.completedAt!.getTime();
      // The API process has no other way to learn of the worker's completion than the NOTIFY (the bus
      // polls nothing; job-events.ts), so the event's arrival is the verdict. The latency is a figure to
      // report (≈ 10–50 ms on a quiet machine), not a margin a busy machine could break (issue 22).
      console.log(`[job-events] worker completion → API stream: ${latencyMs} ms`);
    } finally {
      await stream.close();
    }
  });

  it('with the default intervals, a dead worker\'s job is refunded within 60 s of its last heartbeat (staleness + one reaper pass)', () => {
    const d = loadConfig({ NODE_ENV: 'test' }).workers;
    expect([d.heartbeatMs, d.staleMs, d.reaperIntervalMs]).toEqual([10_000, 30_000, 15_000]);
    expect(d.staleMs + d.reaperIntervalMs).toBeLessThanOrEqual(60_000);
    expect(() => loadConfig({ NODE_ENV: 'test', JOB_HEARTBEAT_MS: '1000', JOB_STALE_MS: '1500' })).toThrow(/JOB_STALE_MS: must be at least twice JOB_HEARTBEAT_MS/);
  });

  it('a SIGKILLed worker\'s job is refunded within 60 s, exactly once', async () => {
    fake.options.mode = 'hang';
    const stopReaper = startHousekeeping(ctx); // the API process's reaper, as `npm start` runs it
    try {
      await w.ready;
      const { cookie, user } = await signUpAndLogin(app);
      const image = await uploadPhoto(app, cookie);
      const job = (await app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image } } })).json();
      // the worker has the job and keeps stamping it: a second heartbeat after the first
      const readRow = async () => (await ctx.database.db.select().from(jobs).where(eq(jobs.id, job.imageId)))[0]!;
      let first: Date | null = null;
      let beating = false;
      for (let i = 0; i < 600 && !beating; i++) {
        const r = await readRow();
        if (r.heartbeatAt && !first) first = r.heartbeatAt;
        beating = !!first && !!r.heartbeatAt && r.heartbeatAt > first;
        if (!beating) await new Promise((r) => setTimeout(r, 100));
      }
      expect(beating).toBe(true);
      expect((await readRow()).status).toBe('processing');
      expect((await getBalance(ctx.database.db, user.id)).total).toBe(300 - job.cost);
      w.child.kill('SIGKILL');
      await new Promise((r) => w.child.once('exit', r));
      const killedAt = Date.now();
      const lastBeat = (await readRow()).heartbeatAt!;
      // a deadline, not a margin: the chain above refunds ≈ CHAIN.staleMs after the last heartbeat
      let row = await readRow();
      while (row.status !== 'failed' && Date.now() - killedAt < 60_000) {
        await new Promise((r) => setTimeout(r, 100));
        row = await readRow();
      }
      console.log(`[reaper] SIGKILLed worker's job refunded after ${((Date.now() - killedAt) / 1000).toFixed(1)} s`);
      expect(row.status).toBe('failed');
      // the reaper's heartbeat rule did it, and only once the heartbeat had gone stale
      expect(row.errorCode).toBe('JOB_LOST');
      expect(row.error).toBe('worker stopped (no heartbeat)');
      expect(row.updatedAt.getTime() - lastBeat.getTime()).toBeGreaterThanOrEqual(CHAIN.staleMs);
      expect((await getBalance(ctx.database.db, user.id)).total).toBe(300);
      // another reaper pass (of any process) changes nothing
      expect(await recoverStuckJobs(ctx, { singleOwner: false, maxAgeMs: 3_600_000 })).toEqual([]);
      const refunds = (await ctx.database.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).filter((e) => e.kind === 'refund');
      expect(refunds).toHaveLength(1);
      expect((await getBalance(ctx.database.db, user.id)).total).toBe(300);
    } finally {
      stopReaper();
      fake.options.mode = 'complete';
    }
  });
});
