import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES, type TestDatabaseKind } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { waitFor } from '../../../test/helpers/wait';
import { jobs, uploads } from '../../db/schema';
import { purgeExpiredContent, RETENTION_DAYS } from './retention.service';

const DAY = 86_400_000;

/**
 * Retention (002 §9, issue 13): content is deleted 30 days after processing, from the storage in use,
 * with a clock the test controls; re-running changes nothing; newer content stays.
 */
function suite(name: string, kind: TestDatabaseKind, env: () => Record<string, string>) {
  describe(`retention on ${name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, env(), { workers: true });
    });
    afterAll(async () => {
      await t?.close();
    });

    async function finishedJob(cookie: string) {
      const mp = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(300, 200));
      const image = (await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json().imageUrl as string;
      const job = (await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image, scale_factor: 1, output_format: 'jpg', output_quality: 95, lora_index: 2 } } })).json();
      await waitFor(async () => ((await t.app.inject({ url: `/api/image/status/${job.jobId}`, headers: { cookie } })).json().status === 'completed' ? true : undefined));
      return (await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, job.jobId)))[0]!;
    }

    it('deletes results and originals 30 days after processing, shows them as expired, and is safe to re-run', async () => {
      const { cookie, user } = await signUpAndLogin(t.app);
      const row = await finishedJob(cookie);
      const keys = [row.resultKey!, row.originalKey!];
      for (const k of keys) expect(await t.ctx.storage.exists(k)).toBe(true);

      // 29 days later: nothing is due.
      expect(await purgeExpiredContent(t.ctx, { now: new Date(Date.now() + (RETENTION_DAYS - 1) * DAY) })).toEqual({ results: 0, originals: 0 });
      for (const k of keys) expect(await t.ctx.storage.exists(k)).toBe(true);

      // 31 days later: both files go; the history row stays, marked expired.
      const later = new Date(Date.now() + (RETENTION_DAYS + 1) * DAY);
      const first = await purgeExpiredContent(t.ctx, { now: later, batch: 1 });
      expect(first.results).toBeGreaterThanOrEqual(1);
      expect(first.originals).toBeGreaterThanOrEqual(1);
      for (const k of keys) expect(await t.ctx.storage.exists(k)).toBe(false);
      const after = (await t.ctx.database.db.select().from(jobs).where(eq(jobs.id, row.id)))[0]!;
      expect(after).toMatchObject({ resultKey: null, originalKey: null, status: 'completed' });
      expect(after.expiredAt).not.toBeNull();
      expect((await t.ctx.database.db.select().from(uploads).where(eq(uploads.key, keys[1]!)))[0]!.status).toBe('expired');
      const hist = (await t.app.inject({ url: `/api/image/history/${user.id}?source=upscale`, headers: { cookie } })).json();
      expect(hist.images[0]).toMatchObject({ image_url: null, original_image_url: null });
      expect(hist.images[0].expired_at).toBeTruthy();

      // Again: nothing more to do.
      expect(await purgeExpiredContent(t.ctx, { now: later })).toEqual({ results: 0, originals: 0 });
    });

    it('runs hourly from the durable queue (a pg-boss schedule)', async () => {
      const r = await t.ctx.database.executor.executeSql(`select name, cron from pgboss.schedule where name = 'retention-purge'`, []);
      expect(r.rows).toEqual([{ name: 'retention-purge', cron: '23 * * * *' }]);
    });

    it('an upload used again recently is kept until 30 days after its last job', async () => {
      const { cookie } = await signUpAndLogin(t.app);
      const old = await finishedJob(cookie);
      // The same upload, used by a second job "20 days later" (simulated by dating the first job back).
      await t.ctx.database.db.update(jobs).set({ completedAt: new Date(Date.now() - 40 * DAY), updatedAt: new Date(Date.now() - 40 * DAY) }).where(eq(jobs.id, old.id));
      await t.ctx.database.db.update(uploads).set({ createdAt: new Date(Date.now() - 40 * DAY) }).where(eq(uploads.key, old.originalKey!));
      const fresh = await t.ctx.database.db.insert(jobs).values({
        userId: old.userId, source: 'upscale', status: 'completed', jobId: `fresh-${old.id}`, jobName: 'upscale', originalKey: old.originalKey, input: {}, cost: 0, spendKey: `fresh-${old.id}`, requestHash: 'x', completedAt: new Date(), updatedAt: new Date(),
      }).returning();
      const r = await purgeExpiredContent(t.ctx);
      expect(r.results).toBeGreaterThanOrEqual(1); // the old job's result
      expect(await t.ctx.storage.exists(old.originalKey!)).toBe(true); // still used by the fresh job
      expect((await t.ctx.database.db.select().from(jobs).where(eq(jobs.id, fresh[0]!.id)))[0]!.originalKey).toBe(old.originalKey);
    });
  });
}

for (const kind of TEST_DATABASES) suite(kind.name, kind, () => ({}));

// S3: the same deletion against an S3-compatible server.
let s3dir = '';
let s3: S3rver | undefined;
let s3port = 0;
beforeAll(async () => {
  s3dir = await mkdtemp(path.join(tmpdir(), 'dewy-s3-retention-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3dir, configureBuckets: [{ name: 'dewy-retention' }] });
  s3port = (await s3.run()).port;
});
afterAll(async () => {
  await s3?.close();
  if (s3dir) await rm(s3dir, { recursive: true, force: true });
});
suite('pglite with S3 storage', TEST_DATABASES[0]!, () => ({
  STORAGE_DRIVER: 's3',
  S3_BUCKET: 'dewy-retention',
  S3_ENDPOINT: `http://127.0.0.1:${s3port}`,
  S3_FORCE_PATH_STYLE: 'true',
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
}));
