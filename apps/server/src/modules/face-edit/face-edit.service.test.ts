import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { faceEditBaseSize, faceEditCost } from '@dewy/contracts';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { waitFor } from '../../../test/helpers/wait';
import { jobs } from '../../db/schema';
import { getBalance, ledgerSums } from '../credits';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../../shared/fixtures/portraits');

/** A mask PNG of the given size: black, with a white disc (or all black when `empty`). */
async function maskPng(width: number, height: number, empty = false): Promise<Buffer> {
  const r = Math.round(Math.min(width, height) / 8);
  const svg = `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="black"/>${empty ? '' : `<circle cx="${width / 2}" cy="${height / 2}" r="${r}" fill="white"/>`}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('face-edit cost (001 §9) at the boundaries', () => {
  it('85 up to an output sum of 3000, then 10 more per full 200 px', () => {
    expect(faceEditCost(1500, 1500, 1)).toBe(85); // 3000
    expect(faceEditCost(1001, 998, 1.6)).toBe(85); // 1602 + 1597 = 3199
    expect(faceEditCost(1001, 999, 1.6)).toBe(95); // 1602 + 1598 = 3200
    expect(faceEditCost(1000, 1000, 2)).toBe(85 + 10 * 5); // 4000
    // An upload over 3000 + 2 % is brought to 3000 first; within 2 % it is kept.
    expect(faceEditCost(2000, 2000, 1)).toBe(85);
    expect(faceEditBaseSize(1530, 1530)).toEqual({ width: 1530, height: 1530 }); // 3060: within 2 %, kept
    expect(faceEditBaseSize(1600, 1600)).toEqual({ width: 1500, height: 1500 }); // 3200: brought to 3000
    expect(faceEditCost(1530, 1530, 1.1)).toBe(85 + 10 * 1); // 1683 + 1683 = 3366
  });
});

describe.each(TEST_DATABASES)('face-edit jobs on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function upload(cookie: string, bytes: Buffer, name: string, type: string) {
    const mp = multipartBody('image', name, type, bytes);
    const r = await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().imageUrl as string;
  }
  async function photoAndMask(cookie: string, w: number, h: number, emptyMask = false) {
    return { image: await upload(cookie, await makeJpeg(w, h), 'p.jpg', 'image/jpeg'), mask: await upload(cookie, await maskPng(w, h, emptyMask), 'm.png', 'image/png') };
  }
  const run = (cookie: string, input: object) => t.app.inject({ method: 'POST', url: '/api/runpod-face-edit', headers: { cookie }, payload: { input } });

  it('charges the spec cost on the stored size, runs with the mask, completes into the face_edit history', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const { image, mask } = await photoAndMask(cookie, 1001, 999);
    const r = await run(cookie, { image, mask, resize_factor: 1.6, easy_value: 0.5 });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ success: true, cost: 95, credits: 300 - 95 });
    const done = await waitFor(async () => {
      const s = (await t.app.inject({ url: `/api/image/status/${r.json().jobId}?source=face_edit`, headers: { cookie } })).json();
      return s.status === 'completed' ? s : undefined;
    });
    expect(done.imageUrl).toBeTruthy();
    const row = (await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, r.json().jobId)))[0]!;
    expect(row).toMatchObject({ source: 'face_edit', jobName: 'face-edit', width: 1602, height: 1598 });
    expect((row.meta as { maskBytes: number }).maskBytes).toBeGreaterThan(0);
    const seen = t.faceEditEngine.seen.at(-1)!;
    expect(seen.input.seed).toBeGreaterThanOrEqual(1);
    expect(seen.input.easy_value).toBe(0.5);
    const hist = (await t.app.inject({ url: `/api/image/history/${user.id}?source=face_edit`, headers: { cookie } })).json();
    expect(hist.images[0]).toMatchObject({ source: 'face_edit', status: 'completed' });
  });

  it('refuses, charging nothing: no mask, an empty mask, another user\'s mask, out-of-range values', async () => {
    const a = await signUpAndLogin(t.app);
    const b = await signUpAndLogin(t.app);
    const pa = await photoAndMask(a.cookie, 600, 400);
    const empty = await photoAndMask(a.cookie, 600, 400, true);
    const pb = await photoAndMask(b.cookie, 600, 400);
    const cases: [object, number, string][] = [
      [{ image: pa.image, mask: null, easy_value: 0.5 }, 400, 'MASK_REQUIRED'],
      [{ image: pa.image, mask: empty.mask, easy_value: 0.5 }, 400, 'MASK_EMPTY'],
      [{ image: pa.image, mask: pb.mask, easy_value: 0.5 }, 403, 'FORBIDDEN'],
      [{ image: pa.image, mask: pa.mask, easy_value: 1.5 }, 400, 'VALIDATION_FAILED'],
      [{ image: pa.image, mask: pa.mask, easy_value: 0.5, resize_factor: 9 }, 400, 'VALIDATION_FAILED'],
      [{ image: pa.image, mask: pa.mask, easy_value: 0.5, extra: 1 }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [input, status, code] of cases) {
      const r = await run(a.cookie, input);
      expect(r.statusCode, JSON.stringify(input)).toBe(status);
      expect(r.json().code).toBe(code);
    }
    const en = await t.app.inject({ method: 'POST', url: '/api/runpod-face-edit', headers: { cookie: a.cookie, 'accept-language': 'en' }, payload: { input: cases[1]![0] } });
    expect(en.json().error).toBe('Paint the area to change!');
    // Signed out (001 §7/§8: "401 means login expired", the AUTH_REQUIRED dialog): the code the spec shows in `error`.
    const out = await t.app.inject({ method: 'POST', url: '/api/runpod-face-edit', headers: { 'accept-language': 'en' }, payload: { input: cases[0]![0] } });
    expect(out.statusCode).toBe(401);
    expect(out.json()).toMatchObject({ success: false, code: 'UNAUTHENTICATED', error: 'AUTH_REQUIRED', message: 'Please log in.' });
    expect((await getBalance(t.ctx.database.db, a.user.id)).total).toBe(300);
  });

  it('an engine failure refunds the job once', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const { image, mask } = await photoAndMask(cookie, 800, 600);
    t.faceEditEngine.mode = 'fail';
    try {
      const r = await run(cookie, { image, mask, easy_value: 0.3 });
      expect(r.json().credits).toBe(215);
      await waitFor(async () => ((await t.app.inject({ url: `/api/image/status/${r.json().jobId}`, headers: { cookie } })).json().status === 'failed' ? true : undefined));
    } finally {
      t.faceEditEngine.mode = 'ok';
    }
    expect(await getBalance(t.ctx.database.db, user.id)).toMatchObject({ total: 300 });
    expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(300);
  });

  it('20 concurrent runs with credits for 3: exactly 3 are charged', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const { image, mask } = await photoAndMask(cookie, 640, 480);
    const results = await Promise.all(Array.from({ length: 20 }, () => run(cookie, { image, mask, easy_value: 0.5 })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 400).every((r) => r.json().code === 'INSUFFICIENT_CREDITS')).toBe(true);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300 - 3 * 85);
  });
});

describe('face edit with the local inpainting engine (real engine, PGlite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(TEST_DATABASES[0]!, {}, { workers: true, configuredEngine: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('repaints the masked spot of a portrait and stores the result at the spec size', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    const photo = await sharp(path.join(FIXTURES, 'obama_910x1137.jpg')).jpeg({ quality: 92 }).toBuffer();
    const up = async (bytes: Buffer, name: string, type: string) => {
      const mp = multipartBody('image', name, type, bytes);
      return (await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json().imageUrl as string;
    };
    const image = await up(photo, 'obama.jpg', 'image/jpeg');
    const mask = await up(await maskPng(910, 1137), 'mask.png', 'image/png');
    const r = await t.app.inject({ method: 'POST', url: '/api/runpod-face-edit', headers: { cookie }, payload: { input: { image, mask, easy_value: 1, seed: 7 } } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().cost).toBe(85);
    const done = await waitFor(
      async () => {
        const s = (await t.app.inject({ url: `/api/image/status/${r.json().jobId}`, headers: { cookie } })).json();
        return s.status === 'completed' || s.status === 'failed' ? s : undefined;
      },
      60_000,
    );
    expect(done.status).toBe('completed');
    const row = (await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, r.json().jobId)))[0]!;
    expect(row).toMatchObject({ engine: 'local', width: 910, height: 1137 });
    const out = await sharp(await t.ctx.storage.get(row.resultKey!)).metadata();
    expect([out.width, out.height]).toEqual([910, 1137]);
  });
});
