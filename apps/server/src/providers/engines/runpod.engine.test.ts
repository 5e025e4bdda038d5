import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRunpod, type FakeRunpod } from '../../../test/fakes/fake-runpod.server';
import { registerLocalStorageRoutes } from '../storage/local-storage.routes';
import { createLocalStorage, type LocalStorage } from '../storage/local.storage';
import type { RetouchEngineInput } from './retouch-engine';
import { buildRunpodInput, createRunpodEngine, findImageRef, RunpodError } from './runpod.engine';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../../shared/fixtures/portraits');
const photo = readFileSync(path.join(FIXTURES, 'gfpgan_adele_crop_512.png'));
const API_KEY = 'rp_test_key';

let root: string;
let storage: LocalStorage;
let files: FastifyInstance;
let fake: FakeRunpod;
let imageUrl: string;

// The fake fetches the photo from a real signed URL of our local storage routes, as RunPod would.
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'dewy-runpod-'));
  files = Fastify();
  const secret = 'runpod-test-secret-123';
  await registerLocalStorageRoutes(files, createLocalStorage({ rootDir: root, secret, publicBaseUrl: '' }));
  await files.listen({ port: 0, host: '127.0.0.1' });
  const addr = files.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  // Same folder and secret, now that the port is known, to sign absolute URLs.
  storage = createLocalStorage({ rootDir: root, secret, publicBaseUrl: `http://127.0.0.1:${port}` });
  await storage.put('u/1/originals/adele.png', photo, 'image/png');
  imageUrl = await storage.signedGetUrl('u/1/originals/adele.png', { expiresInSeconds: 600 });
  fake = await startFakeRunpod({ apiKey: API_KEY });
});

afterAll(async () => {
  await fake?.close();
  await files?.close();
  await rm(root, { recursive: true, force: true });
});

afterEach(() => {
  Object.assign(fake.options, { apiKey: API_KEY, mode: 'complete', outputMode: 'base64', pollsBeforeDone: 2 });
});

function job(over: Partial<RetouchEngineInput['input']> = {}): RetouchEngineInput {
  return {
    imageBytes: photo,
    imageUrl,
    width: 512,
    height: 512,
    input: {
      image: 'http://localhost/api/storage/file?key=u/1/originals/adele.png',
      lora_index: 7,
      scale_factor: 1.5,
      filter_index: 1,
      filter_strength: 0.75,
      filter_prompt: 'asle filter',
      upper_lip: true,
      lower_lip: false,
      left_eyebrow: true,
      right_eyebrow: false,
      nose: true,
      hair: false,
      output_format: 'jpg',
      output_quality: 100,
      numImages: 1,
      seed: 4242,
      prompt: '',
      ...over,
    },
  };
}

const engine = (over: Partial<Parameters<typeof createRunpodEngine>[0]> = {}) =>
  createRunpodEngine({ endpointUrl: fake.endpointUrl, apiKey: API_KEY, pollIntervalMs: 10, timeoutMs: 5000, ...over });

describe('buildRunpodInput', () => {
  it('maps our options to spec 001 §3 input', () => {
    expect(buildRunpodInput(job())).toEqual({
      image: imageUrl,
      seed: 4242,
      prompt: '',
      output_format: 'jpg',
      output_quality: 100,
      lora_index: 7,
      numImages: 1,
      width: 512,
      height: 512,
      scale_factor: 1.5,
      upper_lip: true,
      lower_lip: false,
      filter_strength: 0.75,
      filter_index: 1,
      filter_prompt: 'asle filter',
      left_eyebrow: true,
      right_eyebrow: false,
      nose: true,
      hair: false,
    });
  });
});

describe('RunPod engine against the fake endpoint', () => {
  it('submits, polls through IN_QUEUE and IN_PROGRESS, and returns the image with its real size', async () => {
    const result = await engine().run(job());
    expect(result.format).toBe('jpg');
    expect(result.width).toBe(768);
    expect(result.height).toBe(768);
    const meta = await sharp(result.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 768, 768]);
    expect(result.meta).toMatchObject({ engine: 'runpod', delayTimeMs: 12, executionTimeMs: 345 });
    const sent = fake.jobs.get(result.meta.runpodJobId as string);
    expect(sent?.input).toEqual(buildRunpodInput(job()));
    expect(sent?.polls).toBe(3);
  });

  it.each(['data_url', 'image_url', 'images'] as const)('reads the %s output shape', async (mode) => {
    fake.options.outputMode = mode;
    const result = await engine().run(job({ output_format: 'png', scale_factor: 0.5 }));
    expect([result.format, result.width, result.height]).toEqual(['png', 256, 256]);
  });

  it('retries polls that fail at the gateway', async () => {
    const flaky = await startFakeRunpod({ apiKey: API_KEY, failFirstPolls: 2 });
    try {
      const result = await createRunpodEngine({ endpointUrl: flaky.endpointUrl, apiKey: API_KEY, pollIntervalMs: 5 }).run(job({ scale_factor: 0.25 }));
      expect(result.width).toBe(128);
    } finally {
      await flaky.close();
    }
  });

  it('rejects with the worker error when the job FAILED', async () => {
    fake.options.mode = 'fail';
    const err = await engine().run(job()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunpodError);
    expect(err).toMatchObject({ reason: 'failed', message: 'CUDA out of memory' });
    expect((err as RunpodError).jobId).toBeTruthy();
  });

  it('rejects a wrong API key as unauthorized without creating a job', async () => {
    const before = fake.jobs.size;
    const err = await engine({ apiKey: 'wrong' }).run(job()).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'RunpodError', reason: 'unauthorized', httpStatus: 401 });
    expect(fake.jobs.size).toBe(before);
  });

  it('honours an abort: rejects with the reason and cancels the job', async () => {
    fake.options.mode = 'hang';
    const ctl = new AbortController();
    const pending = engine().run(job(), ctl.signal);
    setTimeout(() => ctl.abort(new Error('user left')), 80);
    await expect(pending).rejects.toThrow('user left');
    const id = fake.cancels.at(-1);
    expect(id).toBeTruthy();
    expect(fake.jobs.get(id as string)?.status).toBe('CANCELLED');
  });

  it('times out after timeoutMs and cancels the job', async () => {
    fake.options.mode = 'hang';
    const cancelsBefore = fake.cancels.length;
    const t0 = Date.now();
    const err = await engine({ timeoutMs: 150 }).run(job()).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'RunpodError', reason: 'timed_out' });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(fake.cancels.length).toBe(cancelsBefore + 1);
    expect(fake.cancels.at(-1)).toBe((err as RunpodError).jobId);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const before = fake.jobs.size;
    await expect(engine().run(job(), AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(fake.jobs.size).toBe(before);
  });
});

describe('image URL', () => {
  it('resolves a relative signed URL against imageBaseUrl, and refuses one without it', async () => {
    const relative = `/api/storage/file${new URL(imageUrl).search}`;
    const base = new URL(imageUrl).origin;
    expect(buildRunpodInput({ ...job(), imageUrl: relative }, base).image).toBe(imageUrl);
    const result = await engine({ imageBaseUrl: base }).run({ ...job({ scale_factor: 0.25 }), imageUrl: relative });
    expect(result.width).toBe(128);
    const before = fake.jobs.size;
    await expect(engine().run({ ...job(), imageUrl: relative })).rejects.toMatchObject({ reason: 'bad_input' });
    expect(fake.jobs.size).toBe(before);
  });
});

describe('findImageRef', () => {
  it('finds base64, data URLs and URLs in the usual output shapes', () => {
    expect(findImageRef({ image: 'aGVsbG8=' })).toEqual({ kind: 'bytes', bytes: Buffer.from('hello') });
    expect(findImageRef({ image: 'data:image/png;base64,aGVsbG8=' })).toEqual({ kind: 'bytes', bytes: Buffer.from('hello') });
    expect(findImageRef({ image_url: 'https://x/y.png' })).toEqual({ kind: 'url', url: 'https://x/y.png' });
    expect(findImageRef({ images: ['https://x/z.png'] })).toEqual({ kind: 'url', url: 'https://x/z.png' });
    expect(findImageRef([{ image: 'aGVsbG8=' }])).toEqual({ kind: 'bytes', bytes: Buffer.from('hello') });
    expect(findImageRef({ error: 'no face' })).toBeUndefined();
    expect(findImageRef(null)).toBeUndefined();
  });
});
