import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRunpod, type FakeRunpod } from '../../../test/fakes/fake-runpod.server';
import { registerLocalStorageRoutes } from '../storage/local-storage.routes';
import { createLocalStorage } from '../storage/local.storage';
import type { FaceEditEngineInput } from './face-edit-engine';
import { createRunpodFaceEditEngine } from './runpod.face-edit';
import { RunpodError } from './runpod.engine';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../../shared/fixtures/portraits');
const photo = readFileSync(path.join(FIXTURES, 'gfpgan_adele_crop_512.png'));

/** The RunPod face-edit adapter against the fake RunPod server, which fetches the signed image and mask URLs. */
describe('RunPod face edit (fake RunPod)', () => {
  let root: string;
  let files: FastifyInstance;
  let fake: FakeRunpod;
  let input: FaceEditEngineInput;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'dewy-runpod-fe-'));
    files = Fastify();
    const secret = 'runpod-face-edit-secret';
    await registerLocalStorageRoutes(files, createLocalStorage({ rootDir: root, secret, publicBaseUrl: '' }));
    await files.listen({ port: 0, host: '127.0.0.1' });
    const addr = files.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    const storage = createLocalStorage({ rootDir: root, secret, publicBaseUrl: `http://127.0.0.1:${port}` });
    const mask = await sharp({ create: { width: 512, height: 512, channels: 3, background: '#000' } }).png().toBuffer();
    await storage.put('u/1/originals/adele.png', photo, 'image/png');
    await storage.put('u/1/originals/mask.png', mask, 'image/png');
    input = {
      imageBytes: photo,
      imageUrl: await storage.signedGetUrl('u/1/originals/adele.png', { expiresInSeconds: 600 }),
      maskBytes: mask,
      maskUrl: await storage.signedGetUrl('u/1/originals/mask.png', { expiresInSeconds: 600 }),
      width: 512,
      height: 512,
      input: { image: '/x', mask: '/m', seed: 42, resize_factor: 1.5, easy_value: 0.7 },
    };
    fake = await startFakeRunpod({ apiKey: 'rp_face_key', pollsBeforeDone: 1 });
  });
  afterAll(async () => {
    await fake?.close();
    await files?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('sends the spec input (signed image and mask URLs, seed, resize_factor, easy_value) and returns the image', async () => {
    const engine = createRunpodFaceEditEngine({ endpointUrl: fake.endpointUrl, apiKey: 'rp_face_key', pollIntervalMs: 20 });
    const r = await engine.run(input);
    expect([r.width, r.height]).toEqual([768, 768]);
    const sent = [...fake.jobs.values()].at(-1)!.input;
    expect(sent).toEqual({ image: input.imageUrl, mask: input.maskUrl, seed: 42, resize_factor: 1.5, easy_value: 0.7 });
    expect(r.meta).toMatchObject({ engine: 'runpod' });
  });

  it('a failed RunPod job rejects with RunpodError failed', async () => {
    fake.options.mode = 'fail';
    try {
      const engine = createRunpodFaceEditEngine({ endpointUrl: fake.endpointUrl, apiKey: 'rp_face_key', pollIntervalMs: 20 });
      await expect(engine.run(input)).rejects.toBeInstanceOf(RunpodError);
    } finally {
      fake.options.mode = 'complete';
    }
  });
});
