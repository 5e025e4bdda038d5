import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage, type S3Storage } from './s3.storage';

// s3rver's fixed development credentials.
const CREDS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const sha256b64 = (b: Buffer): string => createHash('sha256').update(b).digest('base64');

let dir: string;
let server: S3rver;
let storage: S3Storage;
let endpoint: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'dewy-s3rver-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'dewy-test' }] });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  storage = createS3Storage({ bucket: 'dewy-test', region: 'us-east-1', endpoint, forcePathStyle: true, ...CREDS });
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('S3 storage against s3rver', () => {
  it('puts, gets, checks and deletes', async () => {
    const body = Buffer.from('portrait bytes');
    await storage.put('u/1/originals/a.jpg', body, 'image/jpeg');
    expect(await storage.exists('u/1/originals/a.jpg')).toBe(true);
    expect(await storage.get('u/1/originals/a.jpg')).toEqual(body);
    await storage.delete('u/1/originals/a.jpg');
    expect(await storage.exists('u/1/originals/a.jpg')).toBe(false);
    await expect(storage.get('u/1/originals/a.jpg')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses unsafe keys before calling S3', async () => {
    await expect(storage.put('../x', Buffer.from('x'), 'image/jpeg')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('presigns a PUT that signs the checksum as a header, and the PUT works with the required headers', async () => {
    const body = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const sha = sha256b64(body);
    const { url, requiredHeaders } = await storage.presignPut({
      key: 'u/2/originals/p.png',
      contentType: 'image/png',
      contentLength: body.length,
      checksumSha256: sha,
      expiresInSeconds: 300,
    });
    expect(requiredHeaders).toEqual({ 'Content-Type': 'image/png', 'x-amz-checksum-sha256': sha });
    const u = new URL(url);
    expect(u.origin).toBe(endpoint);
    expect(u.pathname).toBe('/dewy-test/u/2/originals/p.png');
    const signedHeaders = u.searchParams.get('X-Amz-SignedHeaders')?.split(';') ?? [];
    // s3rver does not verify checksums, so the proof is that real S3 would: the header is signed…
    expect(signedHeaders).toEqual(expect.arrayContaining(['content-type', 'content-length', 'host', 'x-amz-checksum-sha256']));
    // …and not hoisted into the query, where S3 would not compare it with the body.
    expect([...u.searchParams.keys()].map((k) => k.toLowerCase())).not.toContain('x-amz-checksum-sha256');
    expect(u.searchParams.get('X-Amz-Expires')).toBe('300');

    const res = await fetch(url, { method: 'PUT', headers: requiredHeaders, body });
    expect(res.status).toBe(200);
    expect(await storage.get('u/2/originals/p.png')).toEqual(body);
  });

  it('presigns a GET that fetches, with a download disposition when asked', async () => {
    const body = Buffer.from('result');
    await storage.put('u/3/results/r.jpg', body, 'image/jpeg');
    const view = await fetch(await storage.signedGetUrl('u/3/results/r.jpg', { expiresInSeconds: 60 }));
    expect(view.status).toBe(200);
    expect(Buffer.from(await view.arrayBuffer())).toEqual(body);
    expect(view.headers.get('content-type')).toBe('image/jpeg');

    const dlUrl = await storage.signedGetUrl('u/3/results/r.jpg', { expiresInSeconds: 60, downloadFilename: 'dewy-result.jpg' });
    expect(new URL(dlUrl).searchParams.get('response-content-disposition')).toContain('attachment');
    const dl = await fetch(dlUrl);
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-disposition')).toContain('filename="dewy-result.jpg"');
  });

  it('reports the storage host for CDN rewriting', () => {
    expect(storage.storageHosts).toEqual([new URL(endpoint).host]);
    const aws = createS3Storage({ bucket: 'b', region: 'ap-northeast-2' });
    expect(aws.storageHosts).toContain('b.s3.ap-northeast-2.amazonaws.com');
  });
});
