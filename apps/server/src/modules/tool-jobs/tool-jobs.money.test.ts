import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { creditLedger, jobs } from '../../db/schema';
import { TOOLS } from '../../tools';
import { createFakeImageEditor, createFakeImageGenerator, type FakeImageEditor, type FakeImageGenerator } from '../../../test/fakes/fake-vendors';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { waitFor } from '../../../test/helpers/wait';
import { getBalance, ledgerSums, spend } from '../credits';
import { failAndRefund } from './tool-jobs.service';

/**
 * The money invariants, re-run on every queued tool of `src/tools.ts` through its own route (issue 23):
 * 20 parallel clicks with credits for 3 charge exactly 3; the ledger's sum equals the balance; a
 * failed job is refunded exactly once, however many times it is failed. Every engine is a fake in the
 * engine registry (decision 035). A tool added to TOOLS without a driver here fails this suite.
 */

/** A text-only multipart form (image generation's request without a reference file). */
function form(fields: Record<string, string>) {
  const boundary = `----dewy${Math.random().toString(16).slice(2)}`;
  const body = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('') + `--${boundary}--\r\n`;
  return { payload: Buffer.from(body), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function maskPng(width: number, height: number): Promise<Buffer> {
  const svg = `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="black"/><circle cx="${width / 2}" cy="${height / 2}" r="${width / 6}" fill="white"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe.each(TEST_DATABASES)('money invariants of every queued tool on $name', (kind) => {
  let t: TestApp;
  let generator: FakeImageGenerator;
  let editor: FakeImageEditor;
  beforeAll(async () => {
    generator = createFakeImageGenerator();
    editor = createFakeImageEditor();
    t = await createTestApp(kind, {}, { workers: true, engines: { 'image-generation': generator, 'image-edit': editor } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function upload(cookie: string, bytes: Buffer, name: string, type: string): Promise<string> {
    const mp = multipartBody('image', name, type, bytes);
    const r = await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().imageUrl as string;
  }

  /** How to start a job of each tool through its route, read its job id, and make its engine fail. */
  interface Driver {
    /** Uploads what one request names; @returns a function that sends that request. */
    prepare(cookie: string): Promise<() => Promise<LightMyRequestResponse>>;
    ok: number;
    jobIdOf(body: Record<string, unknown>): string;
    failing(on: boolean): void;
  }
  const drivers: Record<string, Driver> = {
    retouch: {
      async prepare(cookie) {
        const image = await upload(cookie, await makeJpeg(400, 300), 'p.jpg', 'image/jpeg');
        return () => t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image } } });
      },
      ok: 200,
      jobIdOf: (b) => b.jobId as string,
      failing: (on) => void (t.engine.mode = on ? 'fail' : 'ok'),
    },
    'face-edit': {
      async prepare(cookie) {
        const image = await upload(cookie, await makeJpeg(600, 600), 'p.jpg', 'image/jpeg');
        const mask = await upload(cookie, await maskPng(600, 600), 'm.png', 'image/png');
        return () => t.app.inject({ method: 'POST', url: '/api/runpod-face-edit', headers: { cookie }, payload: { input: { image, mask, resize_factor: 1, easy_value: 0.5 } } });
      },
      ok: 200,
      jobIdOf: (b) => b.jobId as string,
      failing: (on) => void (t.faceEditEngine.mode = on ? 'fail' : 'ok'),
    },
    'image-edit': {
      async prepare(cookie) {
        const image = await upload(cookie, await makeJpeg(1280, 720), 'p.jpg', 'image/jpeg');
        return () => t.app.inject({ method: 'POST', url: '/api/seedream/generate?async=1', headers: { cookie }, payload: { prompt: 'a hat', images: [image], size: '1280x720' } });
      },
      ok: 200,
      jobIdOf: (b) => (b.seedream_task_id as string).replace(/^seedream-/, ''),
      failing: (on) => void (editor.mode = on ? 'fail' : 'ok'),
    },
    'image-generation': {
      async prepare(cookie) {
        return () => {
          const mp = form({ prompt: 'a red bicycle', num_images: '1', aspect_ratio: '1x1' });
          return t.app.inject({ method: 'POST', url: '/api/kling/image-generation', headers: { cookie, ...mp.headers }, payload: mp.payload });
        };
      },
      ok: 202,
      jobIdOf: (b) => b.taskId as string,
      failing: (on) => void (generator.mode = on ? 'fail' : 'ok'),
    },
  };

  const settled = (cookie: string, jobId: string) =>
    waitFor(async () => {
      const s = (await t.app.inject({ url: `/api/image/status/${jobId}`, headers: { cookie } })).json();
      return s.status === 'processing' ? undefined : (s.status as string);
    });
  const refundsOf = async (userId: number) => (await t.ctx.database.db.select().from(creditLedger).where(eq(creditLedger.userId, userId))).filter((e) => e.kind === 'refund');

  it('has a driver for every tool of TOOLS', () => {
    expect(TOOLS.map((tool) => tool.name).filter((name) => !drivers[name])).toEqual([]);
  });

  for (const tool of TOOLS) {
    it(`${tool.name}: 20 parallel clicks with credits for 3 charge exactly 3; ledger = balance`, async () => {
      const d = drivers[tool.name]!;
      const probe = await signUpAndLogin(t.app);
      const first = await (await d.prepare(probe.cookie))();
      expect(first.statusCode, first.body).toBe(d.ok);
      const cost = first.json().cost as number;
      expect(cost).toBeGreaterThan(0);

      const { cookie, user } = await signUpAndLogin(t.app);
      const send = await d.prepare(cookie);
      await spend(t.ctx.database.db, { userId: user.id, amount: 300 - 3 * cost, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `drain:${tool.name}:${user.id}` });
      const results = await Promise.all(Array.from({ length: 20 }, () => send()));
      const ok = results.filter((r) => r.statusCode === d.ok);
      expect(ok).toHaveLength(3);
      for (const r of results.filter((x) => x.statusCode !== d.ok)) expect(r.json().code).toBe('INSUFFICIENT_CREDITS');
      expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(0);
      for (const r of ok) expect(await settled(cookie, d.jobIdOf(r.json()))).toBe('completed');
      expect(await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, user.id))).toHaveLength(3);
      expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(0);
      expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(0);
      expect(await settled(probe.cookie, d.jobIdOf(first.json()))).toBe('completed');
    });

    it(`${tool.name}: a failing engine fails the job and refunds it exactly once, however often it is failed`, async () => {
      const d = drivers[tool.name]!;
      const { cookie, user } = await signUpAndLogin(t.app);
      const send = await d.prepare(cookie);
      d.failing(true);
      let jobId: string;
      try {
        const r = await send();
        expect(r.statusCode, r.body).toBe(d.ok);
        expect(r.json().credits).toBe(300 - (r.json().cost as number));
        jobId = d.jobIdOf(r.json());
        expect(await settled(cookie, jobId)).toBe('failed');
      } finally {
        d.failing(false);
      }
      expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
      expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(300);
      expect(await refundsOf(user.id)).toHaveLength(1);
      // The reaper or a late worker failing it again refunds nothing more.
      const [row] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, jobId));
      expect(await failAndRefund(t.ctx.database.db, row!.id, { code: 'JOB_LOST', detail: 'again' })).toBeNull();
      expect(await refundsOf(user.id)).toHaveLength(1);
      expect((await ledgerSums(t.ctx.database.db, user.id)).total).toBe(300);
      expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(300);
    });
  }
});
