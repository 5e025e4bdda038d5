import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { uploads } from '../../db/schema';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../../shared/fixtures/portraits');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('base64');

/**
 * Upload screening (issue 13): a flagged image is refused with NSFW_CONTENT_DETECTED in the caller's
 * language on both upload paths, nothing is stored, nothing is charged. The threshold path uses a
 * moderator stub (no explicit images in the repository); the real classifier runs on safe portraits.
 */
describe.each(TEST_DATABASES)('upload screening on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const files = async (userId: number) => t.ctx.database.db.select().from(uploads).where(eq(uploads.userId, userId));

  it('a flagged direct upload is refused with the spec message and leaves no file or row', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    t.moderator.flagAll = true;
    try {
      for (const [lang, text] of [
        ['ko', '부적절한 컨텐츠가 감지되었습니다. 서비스 정책에 따라 업로드가 차단됩니다.'],
        ['en', 'Inappropriate content was detected. The upload is blocked under our service policy.'],
      ] as const) {
        const mp = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(300, 300));
        const r = await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, 'accept-language': lang, ...mp.headers }, payload: mp.payload });
        expect(r.statusCode).toBe(400);
        // The spec's wire format (001 §8): the code in `error`, the text in the caller's language in `message`.
        expect(r.json()).toMatchObject({ success: false, code: 'NSFW_CONTENT_DETECTED', error: 'NSFW_CONTENT_DETECTED', message: text });
      }
    } finally {
      t.moderator.flagAll = false;
    }
    expect(await files(user.id)).toHaveLength(0);
    const dir = path.join(t.dataDir, 'files', 'u', String(user.id));
    expect(existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => !String(f).endsWith('/')) : []).toEqual([]);
  });

  it('a flagged presigned upload is refused at confirm; its received object is deleted and the upload rejected', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const bytes = await makeJpeg(320, 240);
    const pre = (await t.app.inject({ method: 'POST', url: '/api/image/presign-upload', headers: { cookie }, payload: { filename: 'a.jpg', mime: 'image/jpeg', kind: 'upscale-original', contentLength: bytes.length, checksumSha256: sha256(bytes) } })).json();
    expect((await t.app.inject({ method: 'PUT', url: pre.url, headers: { ...pre.requiredHeaders, 'content-length': String(bytes.length) }, payload: bytes })).statusCode).toBe(200);
    t.moderator.flagAll = true;
    try {
      const r = await t.app.inject({ method: 'POST', url: '/api/image/confirm-upload', headers: { cookie }, payload: { key: pre.key } });
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('NSFW_CONTENT_DETECTED');
    } finally {
      t.moderator.flagAll = false;
    }
    const rows = await files(user.id);
    expect(rows.map((u) => u.status)).toEqual(['rejected']);
    expect(await t.ctx.storage.exists(pre.key)).toBe(false);
  });
});

describe('upload screening with the real classifier (PGlite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(TEST_DATABASES[0]!, {}, { configuredEngine: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a safe portrait passes', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    const mp = multipartBody('image', 'rose.jpg', 'image/jpeg', readFileSync(path.join(FIXTURES, 'rose_leslie_577x880.jpg')));
    const r = await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload });
    expect(r.statusCode, r.body).toBe(200);
  });
});
