import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../test/helpers/databases';
import { makeJpeg, multipartBody } from '../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../test/helpers/test-app';
import { HSTS_VALUE, cspDirectives, cspHeaderValue, webCacheControl } from './lib/http-headers';

/** Issue 7 item 6: security headers on every answer, a CSP the SPA works under, and a shell that is never stale. */

function makeDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Dewy</title><script type="module" src="/assets/app-1234.js"></script>');
  fs.writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dist;
}

type Headers = Record<string, string | string[] | number | undefined>;

function expectSecurityHeaders(h: Headers, what: string) {
  expect(h['x-content-type-options'], what).toBe('nosniff');
  expect(h['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  expect(h['x-frame-options'], what).toBe('DENY');
  expect(String(h['content-security-policy']), what).toContain("frame-ancestors 'none'");
  expect(h['strict-transport-security'], `${what}: no HSTS over http`).toBeUndefined();
  expect(h['cross-origin-embedder-policy'], what).toBeUndefined();
}

describe('security headers and web-app caching', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = makeDist();
    t = await createTestApp(TEST_DATABASES[0]!, { WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('the app shell (/, page routes, /index.html) is no-cache under the CSP; hashed assets are immutable', async () => {
    const csp = cspHeaderValue({ storageHosts: [] });
    for (const url of ['/', '/upscale', '/en/upscale', '/index.html']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toBe(csp);
      expectSecurityHeaders(res.headers, url);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/upscale' }); // monitors and `curl -I` ask with HEAD
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('no-cache');
    for (const d of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "img-src 'self' data: blob:", "connect-src 'self'"]) {
      expect(csp).toContain(d);
    }
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    const asset = await t.app.inject({ url: '/assets/app-1234.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(asset.headers, 'asset');
    expect((await t.app.inject({ url: '/favicon.svg' })).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('API answers, errors, 404s, the signed storage route and the download proxy all carry nosniff and the rest', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    const mp = multipartBody('image', 'p.jpg', 'image/jpeg', await makeJpeg(64, 48));
    const imageUrl: string = (await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json().imageUrl;
    const cases: Array<[string, InjectOptions, number]> = [
      ['auth check', { url: '/api/auth/check' }, 200],
      ['api 404', { url: '/api/nothing-here' }, 404],
      ['asset 404', { url: '/assets/missing.js' }, 404],
      ['validation 400', { method: 'POST', url: '/api/auth/register', payload: { name: 'x\u0000' } }, 400],
      ['foreign origin 403', { method: 'POST', url: '/api/auth/logout', headers: { origin: 'https://evil.example' } }, 403],
      ['signed file', { url: imageUrl }, 200],
      ['forged signed file', { url: imageUrl.replace(/sig=[^&]+/, 'sig=x') }, 403],
      ['download proxy', { url: `/api/image/download?url=${encodeURIComponent(imageUrl)}`, headers: { cookie } }, 200],
      ['api docs', { url: '/api/docs/' }, 200],
      ['api docs script', { url: '/api/docs/static/swagger-initializer.js' }, 200],
    ];
    for (const [what, req, status] of cases) {
      const res = await t.app.inject(req);
      expect(res.statusCode, what).toBe(status);
      expectSecurityHeaders(res.headers, what);
    }
    const file = await t.app.inject({ url: imageUrl });
    expect(file.headers['cross-origin-resource-policy']).toBe('cross-origin'); // a CDN host may serve it
    expect((await t.app.inject({ url: '/api/auth/check' })).headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('webCacheControl picks the policy by path', () => {
    expect(webCacheControl('index.html')).toBe('no-cache');
    expect(webCacheControl(path.join('en', 'index.html'))).toBe('no-cache');
    expect(webCacheControl(path.join('assets', 'index-DesNYikB.js'))).toBe('public, max-age=31536000, immutable');
    expect(webCacheControl('favicon.svg')).toBe('public, max-age=3600');
  });

  it('the CSP lets images and fetches reach the storage and CDN hosts, and nothing a bad setting could inject', () => {
    const d = cspDirectives({ storageHosts: ['dewy.s3.ap-northeast-2.amazonaws.com', 'minio.local:9000', "evil.example; script-src 'unsafe-inline'"], cdnDomain: 'img.dewy.example' });
    for (const k of ['img-src', 'connect-src'] as const) {
      expect(d[k]).toEqual(expect.arrayContaining(['dewy.s3.ap-northeast-2.amazonaws.com', 'minio.local:9000', 'https://img.dewy.example']));
      expect(d[k]!.join(' ')).not.toContain('evil');
    }
    expect(cspDirectives({ storageHosts: [], cdnDomain: 'http://cdn.local:8080' })['img-src']).toContain('http://cdn.local:8080');
    expect(d['script-src']).toEqual(["'self'"]);
  });
});

describe('HSTS only over https', () => {
  it('is sent when the request came over https through a trusted proxy, never over plain http', async () => {
    const trusted = await createTestApp(TEST_DATABASES[0]!, { TRUST_PROXY: 'true', CDN_DOMAIN: 'img.dewy.example' });
    const untrusted = await createTestApp(TEST_DATABASES[0]!);
    try {
      const https = await trusted.app.inject({ url: '/api/auth/check', headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers['strict-transport-security']).toBe(HSTS_VALUE);
      expect(HSTS_VALUE).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
      const httpRes = await trusted.app.inject({ url: '/api/auth/check' });
      expect(httpRes.headers['strict-transport-security']).toBeUndefined();
      const spoofed = await untrusted.app.inject({ url: '/api/auth/check', headers: { 'x-forwarded-proto': 'https' } });
      expect(spoofed.headers['strict-transport-security']).toBeUndefined();
      // the CDN from the configuration is in the policy
      expect(String(https.headers['content-security-policy'])).toMatch(/img-src [^;]*https:\/\/img\.dewy\.example/);
    } finally {
      await trusted.close();
      await untrusted.close();
    }
  });
});
