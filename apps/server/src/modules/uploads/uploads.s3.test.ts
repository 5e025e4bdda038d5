import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, personalTraces, POLYGLOT_TAIL, withPersonalMetadata } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { uploads } from '../../db/schema';
import { PENDING_UPLOAD_LIFETIME_SECONDS, purgeStalePendingUploads } from './uploads.service';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../../shared/fixtures/portraits');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('base64');

describe('the presigned upload flow with STORAGE_DRIVER=s3 (s3rver on 127.0.0.1)', () => {
  let dir: string;
  let server: S3rver;
  let t: TestApp;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dewy-s3-app-'));
    server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'dewy-app' }] });
    const { port } = await server.run();
    t = await createTestApp(
      TEST_DATABASES[0]!,
      {
        STORAGE_DRIVER: 's3',
        S3_BUCKET: 'dewy-app',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      },
      { workers: true },
    );
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('presign → PUT to S3 with the checksum header → confirm → upscale → signed S3 result URL', async () => {
    const { app, ctx } = t;
    expect(ctx.storage.kind).toBe('s3');
    const { cookie } = await signUpAndLogin(app);
    const bytes = await makeJpeg(320, 240);
    const checksumSha256 = createHash('sha256').update(bytes).digest('base64');
    const pre = (
      await app.inject({
        method: 'POST',
        url: '/api/image/presign-upload',
        headers: { cookie },
        payload: { filename: 'me.jpg', mime: 'image/jpeg', kind: 'upscale-original', contentLength: bytes.length, checksumSha256 },
      })
    ).json();
    expect(pre.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dewy-app\/u\/\d+\/incoming\//);
    const put = await fetch(pre.url, { method: 'PUT', headers: pre.requiredHeaders, body: bytes });
    expect(put.ok).toBe(true);
    const conf = (await app.inject({ method: 'POST', url: '/api/image/confirm-upload', headers: { cookie }, payload: { key: pre.key } })).json();
    expect(conf).toMatchObject({ success: true, width: 320, height: 240 });
    const job = (await app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image: conf.imageUrl } } })).json();
    let s = { status: 'processing', imageUrl: '' };
    for (let i = 0; i < 100 && s.status === 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      s = (await app.inject({ url: `/api/image/status/${job.jobId}`, headers: { cookie } })).json();
    }
    expect(s.status).toBe('completed');
    expect(s.imageUrl).toMatch(/X-Amz-Signature=/);
    const res = await fetch(s.imageUrl);
    expect(res.ok).toBe(true);
    expect(Buffer.from(await res.arrayBuffer()).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  async function presignAndPut(cookie: string, bytes: Buffer) {
    const pre = (
      await t.app.inject({
        method: 'POST',
        url: '/api/image/presign-upload',
        headers: { cookie },
        payload: { filename: 'me.jpg', mime: 'image/jpeg', kind: 'upscale-original', contentLength: bytes.length, checksumSha256: sha256(bytes) },
      })
    ).json();
    const res = await fetch(pre.url, { method: 'PUT', headers: pre.requiredHeaders, body: bytes });
    expect(res.ok).toBe(true);
    return pre as { url: string; key: string; requiredHeaders: Record<string, string> };
  }

  it('confirm stores the re-encoded picture in S3 (no GPS, serial or <script>) and deletes what the browser sent', async () => {
    const { app, ctx } = t;
    const { cookie } = await signUpAndLogin(app);
    const photo = Buffer.concat([
      withPersonalMetadata(readFileSync(path.join(FIXTURES, 'obama_910x1137.jpg')), { orientation: 6, serial: 'SN-DEWY-0042', gps: { lat: 37.5665, lon: 126.978 }, xmpAndComment: true }),
      POLYGLOT_TAIL,
    ]);
    const pre = await presignAndPut(cookie, photo);
    const conf = await app.inject({ method: 'POST', url: '/api/image/confirm-upload', headers: { cookie }, payload: { key: pre.key } });
    expect(conf.json()).toMatchObject({ success: true, width: 1137, height: 910 });
    const row = (await ctx.database.db.select().from(uploads).where(eq(uploads.incomingKey, pre.key)))[0]!;
    const stored = await ctx.storage.get(row.key);
    expect(await personalTraces(stored)).toEqual([]);
    expect(row).toMatchObject({ status: 'confirmed', bytes: stored.length, sha256: sha256(stored) });
    expect(await ctx.storage.exists(pre.key)).toBe(false);
    const viaS3 = await fetch(conf.json().imageUrl);
    expect(await personalTraces(Buffer.from(await viaS3.arrayBuffer()))).toEqual([]);
    const dl = await app.inject({ method: 'POST', url: '/api/image/presign-download', headers: { cookie }, payload: { url: conf.json().imageUrl } });
    expect(await personalTraces(Buffer.from(await (await fetch(dl.json().downloadUrl)).arrayBuffer()))).toEqual([]);
  });

  it('an HTML file PUT to a presigned S3 URL is never readable, and the purge deletes it from the bucket', async () => {
    const { app, ctx } = t;
    const { cookie } = await signUpAndLogin(app);
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const pre = await presignAndPut(cookie, html);
    const s3Url = pre.url.split('?')[0]!;
    expect((await app.inject({ method: 'POST', url: '/api/image/presign-download', headers: { cookie }, payload: { url: s3Url } })).statusCode).toBe(404);
    expect((await app.inject({ url: `/api/image/download?url=${encodeURIComponent(s3Url)}`, headers: { cookie } })).statusCode).toBe(404);
    expect(await ctx.storage.exists(pre.key)).toBe(true);
    await ctx.database.db
      .update(uploads)
      .set({ createdAt: sql`now() - make_interval(secs => ${PENDING_UPLOAD_LIFETIME_SECONDS + 60})` })
      .where(eq(uploads.incomingKey, pre.key));
    expect((await purgeStalePendingUploads(ctx)).purged).toBeGreaterThanOrEqual(1);
    expect(await ctx.storage.exists(pre.key)).toBe(false);
    expect(await ctx.database.db.select().from(uploads).where(eq(uploads.incomingKey, pre.key))).toEqual([]);
  });
});
