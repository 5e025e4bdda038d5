import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { waitFor } from '../../../test/helpers/wait';
import { startFakeKling, type FakeKling } from '../../../test/fakes/fake-kling.server';
import type { KlingConfig } from '../../config';
import { createKlingGenerator } from '../../providers/kling/kling.generator';
import { jobs, uploads } from '../../db/schema';
import { getBalance, ledgerSums, spend } from '../credits';

const AK = 'test-access-key';
const SK = 'test-secret-key-0123456789';

/** A multipart body with text fields and an optional file (field `character_reference_images`). */
function generationBody(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
  const boundary = `----dewy${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="character_reference_images"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(TEST_DATABASES)('image generation on Kling ($name)', (kind) => {
  let t: TestApp;
  let kling: FakeKling;
  let cfg: KlingConfig;

  beforeAll(async () => {
    kling = await startFakeKling({ accessKey: AK, secretKey: SK, pollsBeforeDone: 1 });
    t = await createTestApp(
      kind,
      { KLING_ACCESS_KEY: AK, KLING_SECRET_KEY: SK, KLING_BASE_URL: kling.origin, KLING_POLL_INTERVAL_MS: '50', KLING_CONCURRENCY: '3', KLING_REQUEST_TIMEOUT_MS: '60000', JOB_TIMEOUT_SECONDS: '120' },
      { workers: true },
    );
    cfg = t.ctx.config.vendors.kling!;
  }); // the hook timeout of vitest.config.ts: a deadline, generous under load
  afterAll(async () => {
    await t?.close();
    await kling?.close();
  });

  /**
   * Runs `fn` with the engine registry's Kling adapter built on patched settings (a new adapter and
   * token), or with none (null: not configured), then puts the configured one back.
   */
  async function withKling<T>(patch: Partial<KlingConfig> | null, fn: () => Promise<T>): Promise<T> {
    const configured = t.ctx.engines.get('image-generation');
    t.ctx.engines.set('image-generation', patch === null ? null : createKlingGenerator({ ...cfg, ...patch }));
    try {
      return await fn();
    } finally {
      t.ctx.engines.set('image-generation', configured);
    }
  }
  const generate = (cookie: string, fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }, lang?: string) => {
    const mp = generationBody(fields, file);
    return t.app.inject({ method: 'POST', url: '/api/kling/image-generation', headers: { cookie, ...mp.headers, ...(lang ? { 'accept-language': lang } : {}) }, payload: mp.payload });
  };
  const finalStatus = (cookie: string, taskId: string, timeoutMs = 60_000, app = t) =>
    waitFor(async () => {
      const s = (await app.app.inject({ url: `/api/image/status/${taskId}`, headers: { cookie } })).json();
      return s.status === 'completed' || s.status === 'failed' ? s : undefined;
    }, timeoutMs);

  it('generates 4 images from a reference: JWT checked, Base64 reference as subject, all stored in our storage, 60 charged', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const r = await generate(cookie, { prompt: 'a woman in a red coat, studio light', num_images: '4', aspect_ratio: '3x4' }, { name: 'ref.jpg', type: 'image/jpeg', bytes: await makeJpeg(640, 800) });
    expect(r.statusCode, r.body).toBe(202);
    expect(r.json()).toMatchObject({ success: true, status: 'processing', images: [], partial: false, cost: 60, credits: 240 });
    const s = await finalStatus(cookie, r.json().taskId);
    expect(s).toMatchObject({ status: 'completed', partial: false, error: null });
    expect(s.images).toHaveLength(4);
    expect(new Set(s.images).size).toBe(4);
    // What Kling received: the documented fields, the reference as Base64 without a data: prefix.
    const task = [...kling.tasks.values()].at(-1)!;
    expect(task.body).toMatchObject({ model_name: 'kling-v1-5', prompt: 'a woman in a red coat, studio light', n: 4, aspect_ratio: '3:4', image_reference: 'subject' });
    expect(String(task.body.image).slice(0, 4)).toBe('/9j/'); // a JPEG in Base64
    expect(kling.lastClaims).toMatchObject({ iss: AK });
    // Stored in OUR storage: every result key exists and is a 3:4 PNG.
    const row = (await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, r.json().taskId)))[0]!;
    expect(row).toMatchObject({ source: 'kling', jobName: 'kling-generation', status: 'completed', cost: 60 });
    expect(row.resultKeys).toHaveLength(4);
    for (const key of row.resultKeys!) {
      const meta = await sharp(await t.ctx.storage.get(key)).metadata();
      expect([meta.width, meta.height]).toEqual([384, 512]);
    }
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(240);
    // History: grouped, all four urls and the Kling task id; the page's pagination fields.
    const h = (await t.app.inject({ url: `/api/image/history/${user.id}?source=kling&grouped=1&group_limit=10&group_offset=0`, headers: { cookie } })).json();
    expect(h.images).toHaveLength(1);
    expect(h.images[0].all_image_urls).toHaveLength(4);
    expect(h.images[0].kling_task_id).toBe(task.id);
    expect(h.images[0].original_image_url).toBeTruthy();
    expect(h.pagination).toMatchObject({ hasMore: false, groupHasMore: false, nextGroupOffset: null, nextOffset: null, grouped: true });
    // Each generated image can be downloaded through the owner's download proxy.
    for (const url of s.images) expect((await t.app.inject({ url: `/api/image/download?url=${encodeURIComponent(url)}`, headers: { cookie } })).statusCode).toBe(200);
  });

  it('a partial result completes with what came and refunds the missing images (15 each)', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    kling.options.mode = 'partial';
    try {
      const r = await generate(cookie, { prompt: 'mountain lake', num_images: '3', aspect_ratio: '16x9' });
      expect(r.json().cost).toBe(45);
      const s = await finalStatus(cookie, r.json().taskId);
      expect(s).toMatchObject({ status: 'completed', partial: true });
      expect(s.images).toHaveLength(2);
    } finally {
      kling.options.mode = 'succeed';
    }
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300 - 30);
    expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(300 - 30);
  });

  for (const [mode, code] of [
    ['fail', 'GENERATION_FAILED'],
    ['safety', 'GENERATION_SAFETY_BLOCKED'],
    ['task-safety', 'GENERATION_SAFETY_BLOCKED'],
    ['arrears', 'VENDOR_UNAVAILABLE'],
  ] as const) {
    it(`vendor ${mode} → failed with ${code}, everything refunded`, async () => {
      const { cookie, user } = await signUpAndLogin(t.app);
      kling.options.mode = mode;
      try {
        const r = await generate(cookie, { prompt: 'a cat on a sofa', num_images: '2', aspect_ratio: '1x1' });
        expect(r.statusCode, r.body).toBe(202);
        expect(r.json().credits).toBe(270);
        const s = await finalStatus(cookie, r.json().taskId);
        expect(s).toMatchObject({ status: 'failed', error: code, images: [] });
      } finally {
        kling.options.mode = 'succeed';
      }
      expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
      expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(300);
    });
  }

  it('HTTP 429 (code 1302) is retried with backoff and then succeeds', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    kling.options.mode = 'rate-limit';
    kling.rateLimited = 0;
    kling.options.rateLimitCount = 2;
    try {
      const r = await generate(cookie, { prompt: 'a lighthouse', num_images: '1', aspect_ratio: '9x16' });
      const s = await finalStatus(cookie, r.json().taskId);
      expect(s).toMatchObject({ status: 'completed' });
      expect(s.images).toHaveLength(1);
      expect(kling.rateLimited).toBe(2);
    } finally {
      kling.options.mode = 'succeed';
    }
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(285);
  });

  it('a vendor that never answers: failed and refunded by the job timeout, never left processing', async () => {
    // Its own app: a job timeout of 2 s and a vendor request timeout no test outlives, so only the job
    // timeout can end the job; the wait below is a deadline for that event, not a measured margin.
    const short = await createTestApp(
      kind,
      { KLING_ACCESS_KEY: AK, KLING_SECRET_KEY: SK, KLING_BASE_URL: kling.origin, KLING_POLL_INTERVAL_MS: '50', KLING_REQUEST_TIMEOUT_MS: '3600000', JOB_TIMEOUT_SECONDS: '2' },
      { workers: true },
    );
    kling.options.mode = 'hang';
    try {
      const { cookie, user } = await signUpAndLogin(short.app);
      const mp = generationBody({ prompt: 'a forest', num_images: '1', aspect_ratio: '1x1' });
      const r = await short.app.inject({ method: 'POST', url: '/api/kling/image-generation', headers: { cookie, ...mp.headers }, payload: mp.payload });
      expect(r.statusCode, r.body).toBe(202);
      const s = await finalStatus(cookie, r.json().taskId, 90_000, short);
      expect(s.status).toBe('failed');
      expect((await getBalance(short.ctx.database.db, user.id)).total).toBe(300);
    } finally {
      kling.options.mode = 'succeed';
      await short.close();
    }
  }, 180_000);

  it('a vendor that is down (connection refused): retried, then failed VENDOR_UNAVAILABLE and refunded', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    await withKling({ baseUrl: 'http://127.0.0.1:9' }, async () => {
      const r = await generate(cookie, { prompt: 'a river', num_images: '1', aspect_ratio: '1x1' });
      const s = await finalStatus(cookie, r.json().taskId);
      expect(s).toMatchObject({ status: 'failed', error: 'VENDOR_UNAVAILABLE' });
    });
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
  });

  it('a wrong secret key: the fake refuses the JWT (1000), mapped to VENDOR_AUTH_FAILED, refunded', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const before = kling.authFailures.length;
    await withKling({ secretKey: 'not-the-secret-key' }, async () => {
      const r = await generate(cookie, { prompt: 'a bridge', num_images: '1', aspect_ratio: '1x1' });
      const s = await finalStatus(cookie, r.json().taskId);
      expect(s).toMatchObject({ status: 'failed', error: 'VENDOR_AUTH_FAILED' });
    });
    expect(kling.authFailures.length).toBeGreaterThan(before);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
  });

  it('20 parallel clicks with credits for 3 generations: exactly 3 are charged', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    await spend(t.ctx.database.db, { userId: user.id, amount: 120, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `test-drain-${user.id}` });
    const results = await Promise.all(Array.from({ length: 20 }, () => generate(cookie, { prompt: 'a red bicycle', num_images: '4', aspect_ratio: '1x1' })));
    expect(results.filter((r) => r.statusCode === 202)).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 400).every((r) => r.json().code === 'INSUFFICIENT_CREDITS')).toBe(true);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(0);
    for (const r of results.filter((x) => x.statusCode === 202)) expect((await finalStatus(cookie, r.json().taskId)).status).toBe('completed');
    expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(0);
    const rows = await t.ctx.database.db.select().from(jobs).where(and(eq(jobs.userId, user.id), eq(jobs.source, 'kling')));
    expect(rows).toHaveLength(3);
  });

  it('our content screen over the results: a flagged image is dropped and its 15 credits refunded; all flagged fails and refunds everything', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    try {
      // prompt only (no reference), so every screen from here on is of a generated image
      let base = t.moderator.seen;
      t.moderator.flagIf = (n) => n === base + 1; // the second of four
      const r = await generate(cookie, { prompt: 'four portraits in a garden', num_images: '4', aspect_ratio: '1x1' });
      expect(r.statusCode, r.body).toBe(202);
      const s = await finalStatus(cookie, r.json().taskId);
      expect(s).toMatchObject({ status: 'completed', partial: true });
      expect(s.images).toHaveLength(3);
      expect(t.moderator.seen - base).toBe(4);
      expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300 - 60 + 15);
      const [row] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, r.json().taskId));
      expect((row!.resultKeys as string[]).length).toBe(3);
      for (const k of row!.resultKeys as string[]) expect(await t.ctx.storage.exists(k)).toBe(true);
      expect(row!.meta).toMatchObject({ screenedOut: 1, delivered: 3, partial: true });

      base = t.moderator.seen;
      t.moderator.flagIf = (n) => n >= base;
      const all = await generate(cookie, { prompt: 'two more portraits', num_images: '2', aspect_ratio: '1x1' }, undefined, 'en');
      const f = await finalStatus(cookie, all.json().taskId);
      expect(f.status).toBe('failed');
      const [failed] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, all.json().taskId));
      expect(failed!.errorCode).toBe('GENERATION_SAFETY_BLOCKED');
      expect(failed!.error).toMatch(/flagged by the content screen/);
      expect(failed!.resultKey).toBeNull();
      expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(255);
      expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(255);
    } finally {
      t.moderator.flagIf = null;
    }
  });

  it('Idempotency-Key with a reference file: parallel and later retries answer the first job, charged and stored once; another body is 422', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    // 300 credits − 285 leaves exactly one 15-credit run: a retry must not be refused for the credits the first run spent
    await spend(t.ctx.database.db, { userId: user.id, amount: 285, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `test-drain-${user.id}` });
    const ref = { name: 'ref.jpg', type: 'image/jpeg', bytes: await makeJpeg(500, 600) };
    const fields = { prompt: 'a man in a blue suit', num_images: '1', aspect_ratio: '3x4' };
    const send = (f: Record<string, string>, key: string, file = ref) => {
      const mp = generationBody(f, file);
      return t.app.inject({ method: 'POST', url: '/api/kling/image-generation', headers: { cookie, 'idempotency-key': key, ...mp.headers }, payload: mp.payload });
    };
    const burst = await Promise.all(Array.from({ length: 6 }, () => send(fields, 'gen-key-1')));
    for (const r of burst) expect(r.statusCode, r.body).toBe(202);
    const taskIds = new Set(burst.map((r) => r.json().taskId));
    expect(taskIds.size).toBe(1);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(0);
    const [taskId] = [...taskIds];
    expect((await finalStatus(cookie, taskId!)).status).toBe('completed');
    // a later retry (balance now 0) still answers the same job, not INSUFFICIENT_CREDITS
    const later = await send(fields, 'gen-key-1');
    expect(later.statusCode, later.body).toBe(202);
    expect(later.json()).toMatchObject({ taskId, cost: 15, credits: 0 });
    // the same key with another prompt or another file is refused, in the caller's language
    const otherPrompt = await send({ ...fields, prompt: 'a woman in a red coat' }, 'gen-key-1');
    expect(otherPrompt.statusCode).toBe(422);
    expect(otherPrompt.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const otherFile = await send(fields, 'gen-key-1', { ...ref, bytes: await makeJpeg(520, 600) });
    expect(otherFile.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    // one job, one charge, and one stored reference: the retries left no file behind
    expect(await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, user.id))).toHaveLength(1);
    const refs = await t.ctx.database.db.select().from(uploads).where(and(eq(uploads.userId, user.id), eq(uploads.kind, 'kling-ref')));
    expect(refs).toHaveLength(1);
    expect(await t.ctx.storage.exists(refs[0]!.key)).toBe(true);
    expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(0);
    // a new key with no credits left: refused, and its reference is not kept
    expect((await send(fields, 'gen-key-2')).json().code).toBe('INSUFFICIENT_CREDITS');
    expect(await t.ctx.database.db.select().from(uploads).where(and(eq(uploads.userId, user.id), eq(uploads.kind, 'kling-ref')))).toHaveLength(1);
  });

  it('refuses bad input with a clear message in ko and en, storing and charging nothing', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const jpeg = await makeJpeg(400, 400);
    const cases: [Record<string, string>, { name: string; type: string; bytes: Buffer } | undefined, number, string][] = [
      [{ prompt: '', num_images: '1', aspect_ratio: '1x1' }, undefined, 400, 'GENERATION_INPUT_REQUIRED'],
      [{ prompt: '   ', num_images: '1', aspect_ratio: '1x1' }, undefined, 400, 'GENERATION_INPUT_REQUIRED'],
      [{ prompt: 'a NuDe portrait', num_images: '1', aspect_ratio: '1x1' }, undefined, 400, 'NSFW_PROMPT_BLOCKED'],
      [{ prompt: 'a nsfw scene', num_images: '1', aspect_ratio: '1x1' }, { name: 'r.jpg', type: 'image/jpeg', bytes: jpeg }, 400, 'NSFW_PROMPT_BLOCKED'],
      [{ prompt: 'ok', num_images: '5', aspect_ratio: '1x1' }, undefined, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'ok', num_images: '0', aspect_ratio: '1x1' }, undefined, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'ok', num_images: '1', aspect_ratio: '5x4' }, undefined, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'bad\u0007bell', num_images: '1', aspect_ratio: '1x1' }, undefined, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'x'.repeat(2501), num_images: '1', aspect_ratio: '1x1' }, undefined, 400, 'VALIDATION_FAILED'],
      [{ prompt: 'ok', num_images: '1', aspect_ratio: '1x1' }, { name: 'r.gif', type: 'image/gif', bytes: Buffer.from('GIF89a....') }, 400, 'GENERATION_IMAGE_TYPE'],
      [{ prompt: 'ok', num_images: '1', aspect_ratio: '1x1' }, { name: 'r.png', type: 'image/png', bytes: Buffer.from('not an image at all') }, 400, 'GENERATION_IMAGE_TYPE'],
      [{ prompt: 'ok', num_images: '1', aspect_ratio: '1x1' }, { name: 'r.bmp', type: 'image/bmp', bytes: jpeg }, 400, 'GENERATION_IMAGE_TYPE'],
    ];
    for (const [fields, file, status, code] of cases) {
      const r = await generate(cookie, fields, file);
      expect(r.statusCode, `${JSON.stringify(fields).slice(0, 80)} ${file?.name ?? ''}`).toBe(status);
      expect(r.json().code).toBe(code);
    }
    expect((await generate(cookie, { prompt: 'a NuDe portrait' }, undefined, 'en')).json().error).toBe('NSFW risk: this prompt is not allowed.');
    expect((await generate(cookie, { prompt: 'a NuDe portrait' }, undefined, 'ko')).json().error).toBe('NSFW 위험이 있는 프롬프트는 사용할 수 없습니다.');
    expect((await generate(cookie, { prompt: '' }, undefined, 'en')).json().error).toBe('Enter a prompt or upload a reference image.');
    expect((await generate(cookie, { prompt: 'ok' }, { name: 'a.gif', type: 'image/gif', bytes: Buffer.from('GIF89a') }, 'en')).json().error).toBe('Only jpg, jpeg, png and webp files can be uploaded.');
    // A WebP reference is accepted (002 §5) and is converted to PNG by the upload pipeline.
    const webp = await sharp({ create: { width: 320, height: 320, channels: 3, background: '#888' } }).webp().toBuffer();
    expect((await generate(cookie, { prompt: 'ok', num_images: '1' }, { name: 'r.webp', type: 'image/webp', bytes: webp }, 'en')).statusCode).toBe(202);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300 - 15);
    // Only the WebP run left anything behind: one job, one upload.
    expect(await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, user.id))).toHaveLength(1);
    expect(await t.ctx.database.db.select().from(uploads).where(eq(uploads.userId, user.id))).toHaveLength(1);
  });

  it('not configured: NOT_CONFIGURED in both languages, the flag off, nothing stored or charged; configured: the flag on', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    expect((await t.app.inject({ url: '/api/feature/flags' })).json().imageGenerationEnabled).toBe(true);
    await withKling(null, async () => {
      expect((await t.app.inject({ url: '/api/feature/flags' })).json().imageGenerationEnabled).toBe(false);
      const ko = await generate(cookie, { prompt: 'a cat', num_images: '1' }, { name: 'r.jpg', type: 'image/jpeg', bytes: await makeJpeg(300, 300) }, 'ko');
      expect(ko.statusCode).toBe(503);
      expect(ko.json()).toMatchObject({ code: 'NOT_CONFIGURED', error: '이 기능은 아직 설정되지 않았습니다.' });
      const en = await generate(cookie, { prompt: 'a cat', num_images: '1' }, undefined, 'en');
      expect(en.json()).toMatchObject({ code: 'NOT_CONFIGURED', error: 'This feature is not configured yet.' });
    });
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
    expect(await t.ctx.database.db.select().from(uploads).where(eq(uploads.userId, user.id))).toHaveLength(0);
  });

  it('history and status are the owner\'s only; the history search finds by prompt and pages by groups', async () => {
    const a = await signUpAndLogin(t.app);
    const b = await signUpAndLogin(t.app);
    const ids: string[] = [];
    for (const prompt of ['blue whale', 'green frog', 'blue bird']) {
      const r = await generate(a.cookie, { prompt, num_images: '1', aspect_ratio: '1x1' });
      ids.push(r.json().taskId);
      await finalStatus(a.cookie, r.json().taskId);
    }
    const other = await t.app.inject({ url: `/api/image/history/${a.user.id}?source=kling&grouped=1`, headers: { cookie: b.cookie } });
    expect(other.statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/image/status/${ids[0]}`, headers: { cookie: b.cookie } })).statusCode).toBe(404);
    const found = (await t.app.inject({ url: `/api/image/history/${a.user.id}?source=kling&grouped=1&group_limit=10&group_offset=0&q=BLUE`, headers: { cookie: a.cookie } })).json();
    expect(found.images.map((i: { prompt: string }) => i.prompt)).toEqual(['blue bird', 'blue whale']);
    const p1 = (await t.app.inject({ url: `/api/image/history/${a.user.id}?source=kling&grouped=1&group_limit=2&group_offset=0`, headers: { cookie: a.cookie } })).json();
    expect(p1.images).toHaveLength(2);
    expect(p1.pagination).toMatchObject({ groupHasMore: true, nextGroupOffset: 2, hasMore: true, nextOffset: 2, grouped: true });
    const p2 = (await t.app.inject({ url: `/api/image/history/${a.user.id}?source=kling&grouped=1&group_limit=2&group_offset=2`, headers: { cookie: a.cookie } })).json();
    expect(p2.images.map((i: { prompt: string }) => i.prompt)).toEqual(['blue whale']);
    expect(p2.pagination).toMatchObject({ groupHasMore: false, nextGroupOffset: null });
  });

  it('send-to-upscale: the owner\'s result becomes a new confirmed upload the retouch job accepts; another user\'s result and foreign URLs are refused', async () => {
    const a = await signUpAndLogin(t.app);
    const b = await signUpAndLogin(t.app);
    const r = await generate(a.cookie, { prompt: 'portrait', num_images: '2', aspect_ratio: '1x1' });
    const s = await finalStatus(a.cookie, r.json().taskId);
    const second = s.images[1] as string;
    const copy = await t.app.inject({ method: 'POST', url: '/api/image/result-to-upload', headers: { cookie: a.cookie }, payload: { url: second } });
    expect(copy.statusCode, copy.body).toBe(200);
    expect(copy.json()).toMatchObject({ success: true, width: 512, height: 512 });
    const up = await t.ctx.database.db.select().from(uploads).where(and(eq(uploads.userId, a.user.id), eq(uploads.kind, 'result-copy')));
    expect(up).toHaveLength(1);
    expect(up[0]!.status).toBe('confirmed');
    // The retouch route takes the copy like any upload of the owner.
    const retouch = await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie: a.cookie }, payload: { input: { image: copy.json().imageUrl } } });
    expect(retouch.statusCode, retouch.body).toBe(200);
    // Another user's result, a foreign URL: refused, nothing copied.
    const foreign = await t.app.inject({ method: 'POST', url: '/api/image/result-to-upload', headers: { cookie: b.cookie }, payload: { url: second } });
    expect(foreign.statusCode).toBe(403);
    const outside = await t.app.inject({ method: 'POST', url: '/api/image/result-to-upload', headers: { cookie: b.cookie }, payload: { url: 'http://169.254.169.254/latest/meta-data' } });
    expect([400, 403, 404]).toContain(outside.statusCode);
    expect(await t.ctx.database.db.select().from(uploads).where(eq(uploads.userId, b.user.id))).toHaveLength(0);
  });
});
