import sharp from 'sharp';
import { AppError } from '../../src/lib/app-error';
import type { ImageGenerator } from '../../src/providers/kling/image-generator';
import { SeedreamError, type SeedreamClient } from '../../src/providers/seedream/seedream.client';

/**
 * In-process stand-ins for the vendor engines of the registry (decision 035), for tests about the
 * kernel rather than about a vendor's protocol (those run the real adapters against fake HTTP servers:
 * fake-kling.server.ts, fake-seedream.server.ts). `mode: 'fail'` makes every call fail the way the
 * real adapter reports a vendor failure.
 */

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#6a8' } }).png().toBuffer();
}

/** A fake image generator (the `image-generation` capability): `count` square PNGs, or GENERATION_FAILED. */
export interface FakeImageGenerator extends ImageGenerator {
  mode: 'ok' | 'fail';
  calls: number;
}

export function createFakeImageGenerator(): FakeImageGenerator {
  const g: FakeImageGenerator = {
    name: 'kling:fake',
    mode: 'ok',
    calls: 0,
    async generate(req, _signal, onTask) {
      g.calls++;
      onTask?.(`fake-task-${g.calls}`);
      if (g.mode === 'fail') throw new AppError('GENERATION_FAILED', { message: 'fake vendor failure' });
      const bytes = await png(64, 64);
      return { taskId: `fake-task-${g.calls}`, images: Array.from({ length: req.count }, () => ({ bytes, format: 'png' as const, width: 64, height: 64 })) };
    },
  };
  return g;
}

/** A fake image editor (the `image-edit` capability): `maxImages` PNGs per call, or InternalServiceError. */
export interface FakeImageEditor extends SeedreamClient {
  mode: 'ok' | 'fail';
  calls: number;
}

export function createFakeImageEditor(): FakeImageEditor {
  const e: FakeImageEditor = {
    name: 'seedream:fake',
    model: 'fake',
    mode: 'ok',
    calls: 0,
    async generate(params) {
      e.calls++;
      if (e.mode === 'fail') throw new SeedreamError('InternalServiceError', 'fake vendor failure', { httpStatus: 500 });
      const bytes = await png(64, 64);
      return { images: Array.from({ length: params.maxImages }, () => ({ bytes, format: 'png' as const, width: 64, height: 64 })), failures: [], model: 'fake' };
    },
  };
  return e;
}
