import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../test/helpers/databases';
import { createTestApp, signUpAndLogin, type TestApp } from '../test/helpers/test-app';
import { isAdmin } from './policies';

describe('route access declared on the route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(TEST_DATABASES[0]!);
    // routes added the way a module adds them, before the app is ready
    t.app.get('/api/test/admin-only', { config: { access: 'admin' } }, async () => ({ ok: true }));
    t.app.get('/api/test/members', { config: { access: 'user' } }, async () => ({ ok: true }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an /api route without a declaration cannot be registered', () => {
    expect(() => t.app.get('/api/test/undeclared', async () => ({ ok: true }))).toThrow(/does not declare config.access/);
  });

  it('admin routes admit only the policy\'s administrator; user routes any session; none without one', async () => {
    const admin = await signUpAndLogin(t.app); // first account: id 1
    const member = await signUpAndLogin(t.app);
    expect(isAdmin(admin.user)).toBe(true);
    expect(isAdmin(member.user)).toBe(false);
    expect((await t.app.inject({ url: '/api/test/admin-only', headers: { cookie: admin.cookie } })).statusCode).toBe(200);
    const refused = await t.app.inject({ url: '/api/test/admin-only', headers: { cookie: member.cookie, 'accept-language': 'en' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('FORBIDDEN');
    expect((await t.app.inject({ url: '/api/test/admin-only' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/test/members', headers: { cookie: member.cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/test/members' })).json().code).toBe('UNAUTHENTICATED');
    // the page gets the policy's answer, never derives it
    const check = (await t.app.inject({ url: '/api/auth/check', headers: { cookie: member.cookie } })).json();
    expect(check.user.isAdmin).toBe(false);
  });

  it('every user route refuses an anonymous caller before reading the body', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const userRoutes: [string, string][] = [
      ['POST', '/api/runpod-upscale'],
      ['GET', '/api/image/status/00000000-0000-4000-8000-000000000000'],
      ['GET', '/api/image/history/1'],
      ['POST', '/api/image/presign-download'],
      ['GET', '/api/image/download?url=x'],
      ['POST', '/api/image/presign-upload'],
      ['POST', '/api/image/confirm-upload'],
      ['POST', '/api/image/upload-s3'],
      ['GET', '/api/jobs/events'],
    ];
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/runpod-upscale', '/api/jobs/events', '/api/image/status/{jobId}']));
    for (const [method, url] of userRoutes) {
      const res = await t.app.inject({ method: method as 'GET', url, payload: method === 'POST' ? '{"broken":' : undefined, headers: method === 'POST' ? { 'content-type': 'application/json' } : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
