import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { waitFor } from '../../../test/helpers/wait';
import { getBalance } from '../credits';
import { clearSettingsCache } from './settings.service';

/** The maintenance switch and the banned keywords (issue 13) on both databases. */
describe.each(TEST_DATABASES)('maintenance and banned keywords on $name', (kind) => {
  let t: TestApp;
  let admin: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { workers: true });
    admin = await signUpAndLogin(t.app); // id 1
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = async (cookie: string) => {
    const mp = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(400, 300));
    return t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload });
  };
  const retouch = (cookie: string, image: string) =>
    t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie, 'accept-language': 'en' }, payload: { input: { image, scale_factor: 1, output_format: 'jpg', output_quality: 95, lora_index: 2 } } });

  it('while on, the tools\' writes answer 503 with the spec message, reads and running jobs keep working; only the administrator switches it', async () => {
    const u = await signUpAndLogin(t.app);
    const image = (await upload(u.cookie)).json().imageUrl as string;
    t.engine.delayMs = 400;
    const running = await retouch(u.cookie, image);
    expect(running.statusCode, running.body).toBe(200);

    expect((await t.app.inject({ method: 'PUT', url: '/api/admin/maintenance', headers: { cookie: u.cookie }, payload: { on: true } })).statusCode).toBe(403);
    const on = await t.app.inject({ method: 'PUT', url: '/api/admin/maintenance', headers: { cookie: admin.cookie }, payload: { on: true } });
    expect(on.json()).toMatchObject({ on: true, source: 'admin' });
    expect((await t.app.inject({ url: '/api/feature/flags' })).json().maintenance).toBe(true);

    const refused = await retouch(u.cookie, image);
    expect(refused.statusCode).toBe(503);
    // 001 §7/§8: the 503 carries `maintenance: true` and the code in `error`; the text is in `message`.
    expect(refused.json()).toMatchObject({ code: 'MAINTENANCE', error: 'MAINTENANCE', maintenance: true, message: 'The service is under maintenance. Please try again shortly.' });
    const small = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(50, 50));
    const ko = await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie: u.cookie, 'accept-language': 'ko', ...small.headers }, payload: small.payload });
    expect(ko.statusCode).toBe(503);
    expect(ko.json()).toMatchObject({ error: 'MAINTENANCE', maintenance: true, message: '현재 서비스 점검중입니다. 잠시 후 다시 시도해주세요.' });
    // Reads work and the job started before finishes.
    expect((await t.app.inject({ url: '/api/auth/check', headers: { cookie: u.cookie } })).statusCode).toBe(200);
    await waitFor(async () => ((await t.app.inject({ url: `/api/image/status/${running.json().jobId}`, headers: { cookie: u.cookie } })).json().status === 'completed' ? true : undefined));
    expect((await getBalance(t.ctx.database.db, (await t.app.inject({ url: '/api/auth/check', headers: { cookie: u.cookie } })).json().user.id)).total).toBe(300 - running.json().cost);

    await t.app.inject({ method: 'PUT', url: '/api/admin/maintenance', headers: { cookie: admin.cookie }, payload: { on: false } });
    clearSettingsCache();
    expect((await retouch(u.cookie, image)).statusCode).toBe(200);
    t.engine.delayMs = 0;
  });

  it('MAINTENANCE_MODE=true forces it on, whatever the switch says', async () => {
    const forced = await createTestApp(kind, { MAINTENANCE_MODE: 'true' });
    try {
      const u = await signUpAndLogin(forced.app);
      expect((await forced.app.inject({ url: '/api/maintenance' })).json()).toMatchObject({ on: true, source: 'env' });
      const mp = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(40, 40));
      expect((await forced.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie: u.cookie, ...mp.headers }, payload: mp.payload })).statusCode).toBe(503);
    } finally {
      await forced.close();
      clearSettingsCache();
    }
  });

  it('banned keywords: a default list for everyone, replaced (cleaned) by the administrator only', async () => {
    const u = await signUpAndLogin(t.app);
    const first = (await t.app.inject({ url: '/api/auth/banned-keywords' })).json();
    expect(first.keywords.length).toBeGreaterThanOrEqual(5);
    expect((await t.app.inject({ method: 'PUT', url: '/api/admin/banned-keywords', headers: { cookie: u.cookie }, payload: { keywords: ['x'] } })).statusCode).toBe(403);
    const set = await t.app.inject({ method: 'PUT', url: '/api/admin/banned-keywords', headers: { cookie: admin.cookie }, payload: { keywords: [' Gore ', 'gore', '', 'Violence'] } });
    expect(set.json().keywords).toEqual(['gore', 'violence']);
    expect((await t.app.inject({ url: '/api/auth/banned-keywords' })).json().keywords).toEqual(['gore', 'violence']);
    expect((await t.app.inject({ method: 'PUT', url: '/api/admin/banned-keywords', headers: { cookie: admin.cookie }, payload: { keywords: ['a\u0000b'] } })).statusCode).toBe(400);
  });
});
