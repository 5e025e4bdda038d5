import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { closeContext, createContext } from '../../../test/helpers/test-app';
import { loadConfig } from '../../config';
import { creditLedger, jobs } from '../../db/schema';
import { createFakeEngine } from '../../../test/fakes/fake-engine';
import { createMigratedPostgresDatabase, seedPgliteDataDir, TEST_DATABASES } from '../../../test/helpers/databases';
import { getBalance, ledgerSums } from '../credits';
import { recoverStuckJobs } from '../tool-jobs';

const SERVER_ROOT = path.resolve(import.meta.dirname, '../../..');

/** Starts the crash worker and resolves with its first matching line. */
function startWorker(env: Record<string, string>, until: RegExp) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fakes/crash-worker.process.ts'], {
    cwd: SERVER_ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const line = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.split('\n').find((l) => until.test(l));
      if (m) resolve(m);
    });
    child.on('exit', (code) => reject(new Error(`worker exited ${code}: ${err}`)));
    // A deadline for the line (a worker process starts tsx, PGlite and the migrations: slow under load).
    setTimeout(() => reject(new Error(`worker timed out: ${out} ${err}`)), 240_000).unref();
  });
  return { child, line, output: () => out };
}

const kinds = TEST_DATABASES.map((k) => k.name);
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

describe.each(kinds)('a worker killed mid-job on %s', (kind) => {
  async function setup() {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-crash-'));
    const env: Record<string, string> = { DATA_DIR: dataDir };
    // The run's migrated template: the worker process finds every migration applied (decision 033).
    if (kind === 'postgres') {
      const pg = await createMigratedPostgresDatabase();
      env.DATABASE_URL = pg.url;
      cleanups.push(() => pg.drop());
    } else await seedPgliteDataDir(path.join(dataDir, 'db'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    return env;
  }

  async function reopen(env: Record<string, string>) {
    const config = loadConfig({ ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent' });
    return createContext(config, { engines: { retouch: createFakeEngine() } });
  }

  it('ends in a refund, exactly once, when killed while the engine runs', async () => {
    const env = await setup();
    const w = startWorker(env, /^JOB \d+ \d+/);
    const [, imageId, userId] = (await w.line).split(' ').map(Number);
    w.child.kill('SIGKILL');
    await new Promise((r) => w.child.once('exit', r));
    const ctx = await reopen(env); // the PGlite folder's stale lock is taken over
    try {
      const before = await getBalance(ctx.database.db, userId!);
      expect(before.total).toBe(300 - 80);
      // at start: PGlite has one owner, so an 'active' job was orphaned; on PostgreSQL the reaper acts once the job is older than the timeout
      const recovered = await recoverStuckJobs(ctx, { singleOwner: kind === 'pglite', maxAgeMs: kind === 'pglite' ? 3_600_000 : 0 });
      expect(recovered).toEqual([imageId]);
      expect(await recoverStuckJobs(ctx, { singleOwner: true, maxAgeMs: 0 })).toEqual([]);
      const [row] = await ctx.database.db.select().from(jobs).where(eq(jobs.id, imageId!));
      expect(row!.status).toBe('failed');
      expect(await getBalance(ctx.database.db, userId!)).toMatchObject({ total: 300 });
      expect(await ledgerSums(ctx.database.db, userId!)).toMatchObject({ total: 300 });
      const refunds = (await ctx.database.db.select().from(creditLedger).where(eq(creditLedger.userId, userId!))).filter((e) => e.kind === 'refund');
      expect(refunds).toHaveLength(1);
    } finally {
      await closeContext(ctx, { graceful: false });
    }
  }, 300_000);

  it('keeps a completed result and charges once when killed after completing', async () => {
    const env = await setup();
    const w = startWorker({ ...env, CRASH_ENGINE_MODE: 'ok' }, /^DONE/);
    await w.line;
    const [, imageId, userId] = w.output().split('\n').find((l) => l.startsWith('JOB'))!.split(' ').map(Number);
    w.child.kill('SIGKILL');
    await new Promise((r) => w.child.once('exit', r));
    const ctx = await reopen(env);
    try {
      expect(await recoverStuckJobs(ctx, { singleOwner: true, maxAgeMs: 0 })).toEqual([]);
      const [row] = await ctx.database.db.select().from(jobs).where(eq(jobs.id, imageId!));
      expect(row!.status).toBe('completed');
      expect(await ctx.storage.exists(row!.resultKey!)).toBe(true);
      expect(await getBalance(ctx.database.db, userId!)).toMatchObject({ total: 220 });
    } finally {
      await closeContext(ctx, { graceful: false });
    }
  }, 300_000);
});
