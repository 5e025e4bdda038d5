import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../lib/app-error';
import { registerLocalStorageRoutes } from './local-storage.routes';
import { assertValidKey, contentDispositionValue } from './storage-keys';
import { createLocalStorage, verifyLocalPut, type LocalStorage } from './local.storage';

const SECRET = 'test-secret-0123456789abcdef';
const sha256b64 = (b: Buffer): string => createHash('sha256').update(b).digest('base64');

let root: string;
let storage: LocalStorage;
let app: FastifyInstance;

/** A stand-in for the core's error handler: AppError → its status and code. */
function buildApp(): FastifyInstance {
  const a = Fastify();
  a.setErrorHandler((err, _req, reply) => {
    if (isAppError(err)) return reply.code(err.status).send({ success: false, code: err.code });
    return reply.code((err as { statusCode?: number }).statusCode ?? 500).send({ success: false, code: 'INTERNAL', message: String(err) });
  });
  // The app's own JSON route must keep its JSON parser beside the raw-body upload route.
  a.post('/api/echo', async (req) => ({ got: req.body }));
  return a;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'dewy-local-storage-'));
  storage = createLocalStorage({ rootDir: root, secret: SECRET, publicBaseUrl: '' });
  app = buildApp();
  await registerLocalStorageRoutes(app, storage);
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await rm(root, { recursive: true, force: true });
});

/** Splits a relative signed URL into what `inject` wants. */
function target(url: string): { url: string } {
  expect(url.startsWith('/api/storage/')).toBe(true);
  return { url };
}

describe('keys', () => {
  it.each(['u/1/originals/a.jpg', 'u/42/x_y-z.png', 'a'])('accepts %s', (k) => {
    expect(() => assertValidKey(k)).not.toThrow();
  });
  it.each(['', '/etc/passwd', '../x', 'u/../../x', 'u/./x', 'u//x', 'u/.meta/x', 'u/a b', 'u\\x', 'u/ü.jpg', 'x'.repeat(513)])(
    'refuses %j',
    (k) => {
      expect(() => assertValidKey(k)).toThrowError(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    },
  );
});

describe('local storage provider', () => {
  it('puts, gets, checks and deletes, atomically and idempotently', async () => {
    const body = Buffer.from('hello');
    await storage.put('u/1/a.txt', body, 'text/plain');
    expect(await storage.exists('u/1/a.txt')).toBe(true);
    expect(await storage.get('u/1/a.txt')).toEqual(body);
    // Nothing left behind in the temp folder.
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
    await storage.delete('u/1/a.txt');
    await storage.delete('u/1/a.txt');
    expect(await storage.exists('u/1/a.txt')).toBe(false);
    await expect(storage.get('u/1/a.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses traversal keys on every method', async () => {
    await expect(storage.put('../evil', Buffer.from('x'), 'text/plain')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(storage.get('/etc/passwd')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(storage.signedGetUrl('a/../../b', { expiresInSeconds: 60 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('builds absolute URLs when a public base URL is set', async () => {
    const s = createLocalStorage({ rootDir: root, secret: SECRET, publicBaseUrl: 'https://dewy.example/' });
    const body = Buffer.from('x');
    const put = await s.presignPut({ key: 'u/1/k.jpg', contentType: 'image/jpeg', contentLength: 1, checksumSha256: sha256b64(body), expiresInSeconds: 60 });
    expect(put.url).toMatch(/^https:\/\/dewy\.example\/api\/storage\/upload\?key=u%2F1%2Fk\.jpg&exp=\d+&len=1&sha=.+&ct=image%2Fjpeg&sig=/);
    expect(put.requiredHeaders).toEqual({ 'Content-Type': 'image/jpeg', 'x-amz-checksum-sha256': sha256b64(body) });
    const get = await s.signedGetUrl('u/1/k.jpg', { expiresInSeconds: 60, downloadFilename: 'k.jpg' });
    expect(get).toMatch(/^https:\/\/dewy\.example\/api\/storage\/file\?key=u%2F1%2Fk\.jpg&exp=\d+&dl=k\.jpg&sig=/);
  });

  it('verifyLocalPut refuses a tampered field and an expired URL', async () => {
    const body = Buffer.from('abc');
    const t0 = 1_800_000_000_000;
    const s = createLocalStorage({ rootDir: root, secret: SECRET, publicBaseUrl: '', now: () => t0 });
    const { url } = await s.presignPut({ key: 'u/1/v.jpg', contentType: 'image/jpeg', contentLength: 3, checksumSha256: sha256b64(body), expiresInSeconds: 60 });
    const q = Object.fromEntries(new URL(url, 'http://x').searchParams);
    expect(verifyLocalPut(SECRET, q, t0).contentLength).toBe(3);
    expect(() => verifyLocalPut(SECRET, { ...q, len: '4' }, t0)).toThrowError(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => verifyLocalPut('another-secret-0123456789', q, t0)).toThrowError(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => verifyLocalPut(SECRET, q, t0 + 61_000)).toThrowError(expect.objectContaining({ code: 'UPLOAD_EXPIRED' }));
  });
});

describe('PUT /api/storage/upload', () => {
  const body = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6, 7, 8]);
  const presign = (over: Partial<Parameters<LocalStorage['presignPut']>[0]> = {}) =>
    storage.presignPut({ key: 'u/7/originals/p.jpg', contentType: 'image/jpeg', contentLength: body.length, checksumSha256: sha256b64(body), expiresInSeconds: 60, ...over });

  it('stores a matching body and answers like S3, then serves it through the signed GET', async () => {
    const { url, requiredHeaders } = await presign();
    const res = await app.inject({ method: 'PUT', ...target(url), headers: requiredHeaders, payload: body });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe(`"${createHash('md5').update(body).digest('hex')}"`);
    expect(await storage.get('u/7/originals/p.jpg')).toEqual(body);

    const getUrl = await storage.signedGetUrl('u/7/originals/p.jpg', { expiresInSeconds: 120 });
    const got = await app.inject({ method: 'GET', url: getUrl });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload).toEqual(body);
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect(got.headers['cache-control']).toMatch(/^private, max-age=(119|120)$/);
    expect(got.headers['content-disposition']).toBeUndefined();
  });

  it('accepts any declared content type as a raw body (no clash with the JSON parser)', async () => {
    const json = Buffer.from('{"not":"parsed"}');
    const { url, requiredHeaders } = await presign({ key: 'u/7/raw.json', contentType: 'application/json', contentLength: json.length, checksumSha256: sha256b64(json) });
    const res = await app.inject({ method: 'PUT', url, headers: requiredHeaders, payload: json });
    expect(res.statusCode).toBe(200);
    expect(await storage.get('u/7/raw.json')).toEqual(json);
    // …and the app's JSON route still parses JSON.
    const echo = await app.inject({ method: 'POST', url: '/api/echo', payload: { a: 1 } });
    expect(echo.json()).toEqual({ got: { a: 1 } });
  });

  it('refuses a body whose SHA-256 differs and keeps nothing', async () => {
    const { url, requiredHeaders } = await presign({ key: 'u/7/bad.jpg' });
    const forged = Buffer.from(body);
    forged[5] = 0;
    const res = await app.inject({ method: 'PUT', url, headers: requiredHeaders, payload: forged });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('CHECKSUM_MISMATCH');
    expect(await storage.exists('u/7/bad.jpg')).toBe(false);
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('refuses a Content-Length other than the signed one', async () => {
    const { url, requiredHeaders } = await presign({ key: 'u/7/len.jpg' });
    const res = await app.inject({ method: 'PUT', url, headers: requiredHeaders, payload: Buffer.concat([body, Buffer.from('x')]) });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(await storage.exists('u/7/len.jpg')).toBe(false);
  });

  it('refuses a wrong Content-Type or a missing checksum header', async () => {
    const { url, requiredHeaders } = await presign({ key: 'u/7/ct.jpg' });
    const wrongCt = await app.inject({ method: 'PUT', url, headers: { ...requiredHeaders, 'Content-Type': 'image/png' }, payload: body });
    expect(wrongCt.statusCode).toBe(400);
    const noSum = await app.inject({ method: 'PUT', url, headers: { 'Content-Type': 'image/jpeg' }, payload: body });
    expect(noSum.statusCode).toBe(400);
    expect(await storage.exists('u/7/ct.jpg')).toBe(false);
  });

  it('refuses a forged signature (403 FORBIDDEN) and an expired URL (403 UPLOAD_EXPIRED)', async () => {
    const { url, requiredHeaders } = await presign({ key: 'u/7/sig.jpg' });
    const forged = url.replace('u%2F7%2Fsig.jpg', 'u%2F8%2Fsig.jpg');
    const res = await app.inject({ method: 'PUT', url: forged, headers: requiredHeaders, payload: body });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');

    const past = createLocalStorage({ rootDir: root, secret: SECRET, publicBaseUrl: '', now: () => Date.now() - 120_000 });
    const old = await past.presignPut({ key: 'u/7/old.jpg', contentType: 'image/jpeg', contentLength: body.length, checksumSha256: sha256b64(body), expiresInSeconds: 60 });
    const expired = await app.inject({ method: 'PUT', url: old.url, headers: old.requiredHeaders, payload: body });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().code).toBe('UPLOAD_EXPIRED');
  });

  it('caps the bytes it reads from a body longer than it claims', async () => {
    // Behind a proxy or with a lying client the stream may run past the signed length; the receiver
    // must stop at length + 1 and keep nothing.
    const { PassThrough } = await import('node:stream');
    const src = new PassThrough();
    src.end(Buffer.concat([body, Buffer.alloc(1024 * 1024)]));
    const signed = storage.verifyPut(Object.fromEntries(new URL((await presign({ key: 'u/7/cap.jpg' })).url, 'http://x').searchParams));
    await expect(storage.receive(src, signed)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await storage.exists('u/7/cap.jpg')).toBe(false);
  });
});

describe('GET /api/storage/file', () => {
  it('sets Content-Disposition for downloads, with a UTF-8 name', async () => {
    await storage.put('u/9/r.png', Buffer.from([0x89, 0x50]), 'image/png');
    const url = await storage.signedGetUrl('u/9/r.png', { expiresInSeconds: 60, downloadFilename: '보정 "결과".png' });
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe(contentDispositionValue('보정 "결과".png'));
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="__ ____\.png"; /);
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''%EB%B3%B4%EC%A0%95");
  });

  it('answers 403 for a forged or expired URL, 404 for a missing object', async () => {
    await storage.put('u/9/s.png', Buffer.from([1]), 'image/png');
    const url = await storage.signedGetUrl('u/9/s.png', { expiresInSeconds: 60 });
    const tampered = url.replace(/exp=\d+/, (m) => `exp=${Number(m.slice(4)) + 1000}`);
    expect((await app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    // Someone adding a download name to a view URL breaks the signature too.
    expect((await app.inject({ method: 'GET', url: `${url}&dl=x.png` })).statusCode).toBe(403);

    const past = createLocalStorage({ rootDir: root, secret: SECRET, publicBaseUrl: '', now: () => Date.now() - 120_000 });
    const old = await past.signedGetUrl('u/9/s.png', { expiresInSeconds: 60 });
    expect((await app.inject({ method: 'GET', url: old })).statusCode).toBe(403);

    const missing = await storage.signedGetUrl('u/9/none.png', { expiresInSeconds: 60 });
    const res = await app.inject({ method: 'GET', url: missing });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });
});
