import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSeedream, type FakeSeedream } from '../../../test/fakes/fake-seedream.server';
import { createSeedreamClient, modelSupportsSeed, SeedreamError } from './seedream.client';

const KEY = 'k-1';
const ONE_PX_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('Seedream client against the fake ModelArk', () => {
  let fake: FakeSeedream;
  beforeAll(async () => {
    fake = await startFakeSeedream({ apiKey: KEY });
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.options.mode = 'ok';
    fake.requests = [];
  });
  const client = (over: Partial<Parameters<typeof createSeedreamClient>[0]> = {}) =>
    createSeedreamClient({ apiKey: KEY, baseUrl: fake.baseUrl, model: 'seedream-4-0-250828', maxAttempts: 3, retryBaseMs: 10, requestTimeoutMs: 5000, watermark: false, ...over });
  const signal = () => new AbortController().signal;

  it('sends the documented body and fetches the result URLs into bytes', async () => {
    const res = await client().generate({ prompt: 'p', images: [ONE_PX_PNG, ONE_PX_PNG], size: '1280x720', maxImages: 3, seed: 7 }, signal());
    expect(res.images).toHaveLength(3);
    expect(res.images[0]).toMatchObject({ format: 'jpg', width: 1280, height: 720 });
    expect(fake.requests[0]).toMatchObject({ model: 'seedream-4-0-250828', sequential: 'auto', maxImages: 3, size: '1280x720', responseFormat: 'url', watermark: false });
    expect(fake.requests[0]!.seed).toBeUndefined();
  });

  it('sends the seed to models that take one', async () => {
    expect(modelSupportsSeed('seededit-3-0-i2i-250628')).toBe(true);
    await client({ model: 'seededit-3-0-i2i-250628' }).generate({ prompt: 'p', images: [ONE_PX_PNG], size: '1280x720', maxImages: 1, seed: 7 }, signal());
    expect(fake.requests[0]).toMatchObject({ seed: 7, sequential: 'disabled', maxImages: null });
  });

  it('a wrong key fails at once with the vendor code; 429 past the attempts fails with the rate-limit code', async () => {
    const bad = await client({ apiKey: 'nope' })
      .generate({ prompt: 'p', images: [ONE_PX_PNG], size: '1280x720', maxImages: 1 }, signal())
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(SeedreamError);
    expect((bad as SeedreamError).code).toBe('AuthenticationError');
    fake.options.mode = 'rate-limit';
    fake.options.rateLimitTimes = 100;
    const limited = await client()
      .generate({ prompt: 'p', images: [ONE_PX_PNG], size: '1280x720', maxImages: 1 }, signal())
      .catch((e: unknown) => e);
    expect((limited as SeedreamError).code).toMatch(/^RateLimitExceeded/);
    expect(fake.requests).toHaveLength(3);
  });

  it('an aborted job stops the backoff', async () => {
    fake.options.mode = 'down';
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('JOB_TIMEOUT')), 100);
    // A backoff of an hour: only the abort can end this call within the test's deadline.
    const err = await client({ maxAttempts: 10, retryBaseMs: 3_600_000 })
      .generate({ prompt: 'p', images: [ONE_PX_PNG], size: '1280x720', maxImages: 1 }, ac.signal)
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('JOB_TIMEOUT');
  });
});
