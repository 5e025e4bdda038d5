import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';

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
    expect(pre.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dewy-app\/u\/\d+\/originals\//);
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
});
