import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { loadConfig } from '../../config';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { startFakeRunpod, type FakeRunpod } from '../../../test/fakes/fake-runpod.server';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { getBalance } from '../../modules/credits';
import { createRetouchEngine, localPoolConfig } from './index';
import { enginesFromConfig } from '../engine-registry';
import { createLocalPool } from './local.engine';
import { createFakeEngine } from '../../../test/fakes/fake-engine';
import { freePort } from '../../../test/helpers/wait';


describe('engine chosen by config', () => {
  it('local by default, RunPod when configured, and refuses a RunPod set-up without its key', () => {
    expect(createRetouchEngine(loadConfig({})).name).toBe('local');
    expect(createRetouchEngine(loadConfig({ RETOUCH_ENGINE: 'runpod', RUNPOD_ENDPOINT_URL: 'https://api.runpod.ai/v2/abc', RUNPOD_API_KEY: 'k' })).name).toBe('runpod');
    expect(() => loadConfig({ RETOUCH_ENGINE: 'runpod', RUNPOD_ENDPOINT_URL: 'https://api.runpod.ai/v2/abc' })).toThrow(/RUNPOD_API_KEY/);
  });
});

describe('the engine registry built from config (decision 035)', () => {
  const registryOf = (env: Record<string, string>, overrides = {}) => {
    const config = loadConfig(env);
    return enginesFromConfig(config, createLocalPool(localPoolConfig(config)), overrides);
  };

  it('has retouch and face edit always; a vendor capability only when its keys are set; names from the entries', async () => {
    const bare = registryOf({});
    expect(bare.describe()).toEqual({ retouch: 'local', 'face-edit': 'local' });
    for (const c of ['image-generation', 'image-edit', 'llm'] as const) {
      expect(bare.has(c)).toBe(false);
      expect(bare.find(c)).toBeNull();
      expect(() => bare.get(c)).toThrow(expect.objectContaining({ code: 'NOT_CONFIGURED' }));
      expect(() => bare.nameOf(c)).toThrow(expect.objectContaining({ code: 'NOT_CONFIGURED' }));
    }
    const all = registryOf({
      RETOUCH_ENGINE: 'runpod',
      RUNPOD_ENDPOINT_URL: 'https://api.runpod.ai/v2/abc',
      RUNPOD_API_KEY: 'k',
      KLING_ACCESS_KEY: 'ak',
      KLING_SECRET_KEY: 'sk',
      SEEDREAM_API_KEY: 'ark',
      SEEDREAM_MODEL: 'seedream-4-0-250828',
      LLM_MODEL: 'gpt-test',
    });
    expect(all.describe()).toEqual({ retouch: 'runpod', 'face-edit': 'local', 'image-generation': 'kling:kling-v1-5', 'image-edit': 'seedream:seedream-4-0-250828', llm: 'gpt-test' });
    // Built once: the same engine on every ask (one Kling token, one client per process).
    expect(all.get('image-generation')).toBe(all.get('image-generation'));
    await bare.close();
    await all.close();
  });

  it('an override replaces the configured engine (null: not configured) without building it', async () => {
    const fake = createFakeEngine();
    const r = registryOf({ SEEDREAM_API_KEY: 'ark' }, { retouch: fake, 'image-edit': null });
    expect(r.get('retouch')).toBe(fake);
    expect(r.nameOf('retouch')).toBe('fake');
    expect(r.has('image-edit')).toBe(false);
    r.set('image-edit', null);
    r.set('retouch', null);
    expect(r.has('retouch')).toBe(false);
    await r.close();
  });
});

describe('an upscale job through the RunPod adapter against a fake RunPod server', () => {
  let fake: FakeRunpod;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakeRunpod({ apiKey: 'rp-secret', pollsBeforeDone: 1 });
    const port = await freePort();
    t = await createTestApp(
      TEST_DATABASES[0]!,
      { RETOUCH_ENGINE: 'runpod', RUNPOD_ENDPOINT_URL: fake.endpointUrl, RUNPOD_API_KEY: 'rp-secret', RUNPOD_POLL_INTERVAL_MS: '100', PUBLIC_URL: `http://127.0.0.1:${port}` },
      { workers: true, configuredEngine: true },
    );
    await t.app.listen({ host: '127.0.0.1', port });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('sends the spec input with a fetchable signed image URL and stores the result; a FAILED job refunds', async () => {
    const { app, ctx } = t;
    expect(ctx.engines.nameOf('retouch')).toBe('runpod');
    const { cookie, user } = await signUpAndLogin(app);
    const mp = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(400, 300));
    const up = (await app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json();
    const job = (await app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image: up.imageUrl, scale_factor: 1.5, lora_index: 4, nose: true } } })).json();
    let status: { status: string; imageUrl: string | null } = { status: 'processing', imageUrl: null };
    for (let i = 0; i < 100 && status.status === 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await app.inject({ url: `/api/image/status/${job.jobId}`, headers: { cookie } })).json();
    }
    expect(status.status).toBe('completed');
    const sent = [...fake.jobs.values()][0]!.input;
    expect(sent).toMatchObject({ scale_factor: 1.5, lora_index: 4, nose: true, numImages: 1, output_format: 'jpg' });
    expect(String(sent.image)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/storage\/file\?/);
    const result = await app.inject({ url: status.imageUrl! });
    const meta = await sharp(result.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([600, 450]);
    expect((await getBalance(ctx.database.db, user.id)).total).toBe(220);

    fake.options.mode = 'fail';
    const job2 = (await app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image: up.imageUrl } } })).json();
    let s2 = 'processing';
    for (let i = 0; i < 100 && s2 === 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      s2 = (await app.inject({ url: `/api/image/status/${job2.jobId}`, headers: { cookie } })).json().status;
    }
    expect(s2).toBe('failed');
    expect((await getBalance(ctx.database.db, user.id)).total).toBe(220);
  });
});
