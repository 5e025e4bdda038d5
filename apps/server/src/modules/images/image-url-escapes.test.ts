import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { meteredCalls, creditLedger, jobs, uploads } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { keyFromImageUrl } from '../uploads';

/**
 * Issue 21 point 9: a malformed percent-escape in an image URL answered 500 (a URIError from
 * decodeURIComponent), and result-to-upload's `url` let control characters through. Every route that
 * takes an image URL (grep: the contracts' `imageUrlText` fields) answers 400 VALIDATION_FAILED naming the
 * field, for every input of the table, on both databases, and nothing is written.
 */
const MALFORMED = [
  '/%zz',
  '/%',
  '%',
  '/u/1/originals/a%E0%A4.jpg', // a UTF-8 sequence cut short
  '/u/1/originals/%ED%A0%80.jpg', // an escaped lone surrogate
  '/api/files/get?key=u%2F1%2Fa.jpg&x=%zz',
  '/u/1/originals/a.jpg%', // a lone % at the end
  '/u/1/originals/a%00.jpg', // control characters once decoded
  '/u/1/originals/a%0a.jpg',
  '/u/1/originals/a%0D.jpg',
  '/api/files/get?key=u%2F1%2F%00a.jpg',
  '/u/1/originals/a%7f.jpg',
  '/u/1/originals/a%C2%85.jpg', // C1 NEL
  '/u/1/originals/a\u0000.jpg', // raw ones too
  '/u/1/originals/a\n.jpg',
] as const;

describe.each(TEST_DATABASES)('image URLs with malformed escapes on $name', (kind) => {
  let t: TestApp;
  let cookie: string;
  let good: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ cookie } = await signUpAndLogin(t.app));
    const mp = multipartBody('image', 'p.jpg', 'image/jpeg', await makeJpeg(300, 200));
    good = (await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json().imageUrl;
  });
  afterAll(async () => {
    await t?.close();
  });

  const n = async (table: typeof uploads | typeof jobs | typeof creditLedger | typeof meteredCalls) => (await t.ctx.database.db.select({ n: count() }).from(table))[0]!.n;
  const snapshot = async () => ({ uploads: await n(uploads), jobs: await n(jobs), ledger: await n(creditLedger), ai: await n(meteredCalls) });

  /** Every route that takes an image URL: [name, field the error must name, request for a URL]. */
  const ROUTES: [string, string, (url: string) => InjectOptions][] = [
    ['presign-download', 'url', (u) => ({ method: 'POST', url: '/api/image/presign-download', payload: { url: u } })],
    ['download proxy', 'url', (u) => ({ method: 'GET', url: `/api/image/download?url=${encodeURIComponent(u)}` })],
    ['result-to-upload', 'url', (u) => ({ method: 'POST', url: '/api/image/result-to-upload', payload: { url: u } })],
    ['runpod-upscale', 'input.image', (u) => ({ method: 'POST', url: '/api/runpod-upscale', payload: { input: { image: u, scale_factor: 1, output_format: 'jpg', output_quality: 95, lora_index: 2 } } })],
    ['runpod-face-edit image', 'input.image', (u) => ({ method: 'POST', url: '/api/runpod-face-edit', payload: { input: { image: u, mask: good } } })],
    ['runpod-face-edit mask', 'input.mask', (u) => ({ method: 'POST', url: '/api/runpod-face-edit', payload: { input: { image: good, mask: u } } })],
    ['seedream generate images', 'images.0', (u) => ({ method: 'POST', url: '/api/seedream/generate', payload: { prompt: 'a cat', images: [u] } })],
    ['seedream generate mask', 'mask', (u) => ({ method: 'POST', url: '/api/seedream/generate', payload: { prompt: 'a cat', images: [good], mask: u } })],
    ['auto-prompt', 'images.1', (u) => ({ method: 'POST', url: '/api/seedream/auto-prompt', payload: { images: [good, u] } })],
  ];

  it.each(ROUTES)('%s: 400 VALIDATION_FAILED naming %s for every malformed URL, nothing written', async (_name, field, request) => {
    const before = await snapshot();
    for (const bad of MALFORMED) {
      const res = await t.app.inject({ ...request(bad), headers: { cookie, 'accept-language': 'en' } });
      const body = res.json() as { code: string; details?: { field: string }[] };
      expect(res.statusCode, `${JSON.stringify(bad)} → ${res.body}`).toBe(400);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.details?.map((d) => d.field), JSON.stringify(bad)).toContain(field);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('the server-side decoder refuses a malformed escape as VALIDATION_FAILED naming the field, not as a URIError', () => {
    for (const bad of ['/%zz', '/u/1/a%E0%A4.jpg', '/%']) {
      let caught: unknown;
      try {
        keyFromImageUrl(t.ctx, bad, 'input.image');
      } catch (err) {
        caught = err;
      }
      expect(caught, bad).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe('VALIDATION_FAILED');
      expect((caught as AppError).details).toEqual([expect.objectContaining({ field: 'input.image' })]);
    }
    expect(keyFromImageUrl(t.ctx, '/u/7/originals/a%2Db.jpg')).toBe('u/7/originals/a-b.jpg');
  });
});
