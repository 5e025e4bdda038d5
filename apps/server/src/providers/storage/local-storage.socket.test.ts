import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../lib/app-error';
import { registerLocalStorageRoutes } from './local-storage.routes';
import { createLocalStorage, type LocalStorage } from './local.storage';

// The same routes over a real socket, as a browser reaches them: bodies far over Fastify's default
// 1 MiB body limit must stream through, since the route enforces its own signed length.
const SECRET = 'socket-test-secret-0123';
let root: string;
let app: FastifyInstance;
let storage: LocalStorage;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'dewy-socket-'));
  app = Fastify();
  app.setErrorHandler((err, _req, reply) => {
    if (isAppError(err)) return reply.code(err.status).send({ success: false, code: err.code });
    return reply.code((err as { statusCode?: number }).statusCode ?? 500).send({ success: false, code: 'INTERNAL' });
  });
  await registerLocalStorageRoutes(app, createLocalStorage({ rootDir: root, secret: SECRET, publicBaseUrl: '' }));
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  storage = createLocalStorage({ rootDir: root, secret: SECRET, publicBaseUrl: origin });
});

afterAll(async () => {
  await app.close();
  await rm(root, { recursive: true, force: true });
});

describe('local storage routes over HTTP', () => {
  it('uploads and downloads a 6 MB body with fetch', async () => {
    const body = randomBytes(6 * 1024 * 1024);
    const sha = createHash('sha256').update(body).digest('base64');
    const { url, requiredHeaders } = await storage.presignPut({ key: 'u/5/big.jpg', contentType: 'image/jpeg', contentLength: body.length, checksumSha256: sha, expiresInSeconds: 60 });
    const put = await fetch(url, { method: 'PUT', headers: requiredHeaders, body });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);

    const get = await fetch(await storage.signedGetUrl('u/5/big.jpg', { expiresInSeconds: 60, downloadFilename: 'big.jpg' }));
    expect(get.status).toBe(200);
    expect(get.headers.get('content-length')).toBe(String(body.length));
    expect(get.headers.get('content-disposition')).toContain('attachment; filename="big.jpg"');
    expect(Buffer.from(await get.arrayBuffer()).equals(body)).toBe(true);
  });

  it('refuses a tampered 2 MB body with CHECKSUM_MISMATCH and keeps nothing', async () => {
    const body = randomBytes(2 * 1024 * 1024);
    const sha = createHash('sha256').update(body).digest('base64');
    const { url, requiredHeaders } = await storage.presignPut({ key: 'u/5/tampered.jpg', contentType: 'image/jpeg', contentLength: body.length, checksumSha256: sha, expiresInSeconds: 60 });
    body[body.length - 1] = (body[body.length - 1] as number) ^ 0xff;
    const put = await fetch(url, { method: 'PUT', headers: requiredHeaders, body });
    expect(put.status).toBe(400);
    expect(((await put.json()) as { code: string }).code).toBe('CHECKSUM_MISMATCH');
    expect(await storage.exists('u/5/tampered.jpg')).toBe(false);
  });
});
