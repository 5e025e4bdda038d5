import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../test/helpers/databases';
import { createTestApp, type TestApp } from '../test/helpers/test-app';

describe('serving the web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Dewy</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
    t = await createTestApp(TEST_DATABASES[0]!, { WEB_DIST_DIR: dist });
    t.ctx.config.webDistDir = dist;
    afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the shell for page routes, assets as files, and JSON 404s under /api', async () => {
    for (const url of ['/', '/en', '/upscale', '/en/upscale', '/notice/3']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    }
    const asset = await t.app.inject({ url: '/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await t.app.inject({ url: '/api/nothing-here', headers: { 'accept-language': 'en' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
    expect(api.headers['x-request-id']).toBeTruthy();
  });
});

describe('the context (decision 039)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(TEST_DATABASES[0]!);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('carries the app secret, read once by the composition root: the one kept in DATA_DIR/secret without APP_SECRET', () => {
    const kept = fs.readFileSync(path.join(t.dataDir, 'secret'), 'utf8').trim();
    expect(kept).toMatch(/^[0-9a-f]{64}$/);
    expect(t.ctx.secret).toBe(kept);
  });

  it('carries APP_SECRET when it is set', async () => {
    const other = await createTestApp(TEST_DATABASES[0]!, { APP_SECRET: 'a-shared-secret-of-several-hosts-0123456789' });
    try {
      expect(other.ctx.secret).toBe('a-shared-secret-of-several-hosts-0123456789');
    } finally {
      await other.close();
    }
  });
});
