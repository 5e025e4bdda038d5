import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startFakeKling, type FakeKling } from '../../../test/fakes/fake-kling.server';
import { isAppError } from '../../lib/app-error';
import { createKlingGenerator, mapKlingError } from './kling.generator';

const AK = 'ak-unit';
const SK = 'sk-unit-0123456789';

describe('Kling error codes → ours (decision 024)', () => {
  it.each([
    [401, 1000, 'VENDOR_AUTH_FAILED', false],
    [401, 1004, 'VENDOR_AUTH_FAILED', false],
    [429, 1101, 'VENDOR_UNAVAILABLE', false],
    [403, 1103, 'VENDOR_UNAVAILABLE', false],
    [400, 1201, 'GENERATION_FAILED', false],
    [404, 1203, 'GENERATION_FAILED', false],
    [400, 1301, 'GENERATION_SAFETY_BLOCKED', false],
    [429, 1302, 'VENDOR_BUSY', true],
    [429, 1303, 'VENDOR_BUSY', true],
    [500, 5000, 'VENDOR_UNAVAILABLE', true],
    [503, null, 'VENDOR_UNAVAILABLE', true],
    [0, null, 'VENDOR_UNAVAILABLE', true],
    [429, null, 'VENDOR_BUSY', true],
  ] as const)('HTTP %i code %s → %s (retry %s)', (http, code, ours, retry) => {
    expect(mapKlingError(http, code)).toEqual({ code: ours, retry });
  });
});

describe('the Kling adapter against the fake', () => {
  let kling: FakeKling;
  beforeAll(async () => {
    kling = await startFakeKling({ accessKey: AK, secretKey: SK, pollsBeforeDone: 2 });
  });
  afterAll(async () => {
    await kling?.close();
  });
  const gen = (secretKey = SK) =>
    createKlingGenerator({ accessKey: AK, secretKey, baseUrl: kling.origin, model: 'kling-v1-5', pollIntervalMs: 20, concurrency: 1, requestTimeoutMs: 5000 });

  it('signs HS256 with iss = access key, exp = now + 1800, nbf = now − 5; polls to succeed; returns the images as bytes', async () => {
    const tasks: string[] = [];
    const before = Math.floor(Date.now() / 1000);
    const out = await gen().generate({ prompt: 'a cat', count: 3, aspectRatio: '16:9', reference: null }, new AbortController().signal, (id) => tasks.push(id));
    expect(kling.lastClaims).toMatchObject({ iss: AK });
    const { exp, nbf } = kling.lastClaims as { exp: number; nbf: number };
    expect(exp - nbf).toBe(1805);
    expect(exp).toBeGreaterThanOrEqual(before + 1800);
    expect(exp).toBeLessThanOrEqual(before + 1802);
    expect(tasks).toEqual([out.taskId]);
    expect(kling.tasks.get(out.taskId)!.polls).toBe(3);
    expect(out.images).toHaveLength(3);
    const meta = await sharp(out.images[0]!.bytes).metadata();
    expect([meta.width, meta.height, out.images[0]!.format]).toEqual([512, 288, 'png']);
  });

  it('a wrong secret: the fake refuses the token and the adapter throws VENDOR_AUTH_FAILED without retrying', async () => {
    const before = kling.authFailures.length;
    const err = await gen('wrong-secret-xxxxxxx').generate({ prompt: 'a cat', count: 1, aspectRatio: '1:1', reference: null }, new AbortController().signal).catch((e: unknown) => e);
    expect(isAppError(err, 'VENDOR_AUTH_FAILED')).toBe(true);
    expect(kling.authFailures.length - before).toBe(1);
  });

  it('an aborted signal (the job timeout) stops the polling', async () => {
    kling.options.pollsBeforeDone = 1000;
    try {
      const ac = new AbortController();
      setTimeout(() => ac.abort(new Error('JOB_TIMEOUT')), 200);
      const err = await gen().generate({ prompt: 'slow', count: 1, aspectRatio: '1:1', reference: null }, ac.signal).catch((e: unknown) => e);
      expect((err as Error).message).toBe('JOB_TIMEOUT');
    } finally {
      kling.options.pollsBeforeDone = 2;
    }
  });
});
