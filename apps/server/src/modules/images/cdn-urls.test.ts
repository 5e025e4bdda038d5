import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';

describe('image URLs with a CDN configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(TEST_DATABASES[0]!, { CDN_DOMAIN: 'cdn.dewy.test', PUBLIC_URL: 'http://localhost:5000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('hands out signed URLs on the CDN host that the server still resolves to the caller\'s own file', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    const mp = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(300, 200));
    const up = (await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json();
    const url = new URL(up.imageUrl);
    expect(url.host).toBe('cdn.dewy.test');
    expect(url.pathname).toBe('/api/storage/file');
    expect(url.searchParams.get('sig')).toBeTruthy();
    expect(Number(url.searchParams.get('exp'))).toBeGreaterThan(Date.now() / 1000);
    // the CDN forwards path and query to us: the same signed request is served
    expect((await t.app.inject({ url: `${url.pathname}${url.search}` })).statusCode).toBe(200);
    const job = await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image: up.imageUrl } } });
    expect(job.statusCode).toBe(200);
  });

  it('POST /api/image/ensure-cloudfront-cookies (sent by the page on load, 001 §7) answers 204 and sets no cookie, with a CDN or without; signed out 401', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    const plain = await createTestApp(TEST_DATABASES[0]!);
    try {
      const other = await signUpAndLogin(plain.app);
      for (const [app, c] of [[t.app, cookie], [plain.app, other.cookie]] as const) {
        const r = await app.inject({ method: 'POST', url: '/api/image/ensure-cloudfront-cookies', headers: { cookie: c } });
        expect(r.statusCode).toBe(204);
        expect(r.body).toBe('');
        expect(r.headers['set-cookie']).toBeUndefined();
        expect((await app.inject({ method: 'POST', url: '/api/image/ensure-cloudfront-cookies' })).statusCode).toBe(401);
      }
    } finally {
      await plain.close();
    }
  });
});
