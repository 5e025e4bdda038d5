import sharp from 'sharp';
import { faceEditOutputSize } from '@dewy/contracts';
import type { FaceEditEngine, FaceEditEngineInput } from '../../src/providers/engines/face-edit-engine';

/**
 * A face-edit engine for service tests: returns the photo at the spec's output size (so results are
 * real images of the right size), remembers the inputs it saw, and can be told to fail.
 */
export interface FakeFaceEditEngine extends FaceEditEngine {
  mode: 'ok' | 'fail';
  seen: FaceEditEngineInput[];
}

export function createFakeFaceEditEngine(): FakeFaceEditEngine {
  const engine: FakeFaceEditEngine = {
    name: 'fake-face-edit',
    needsMask: true,
    mode: 'ok',
    seen: [],
    async run(input, _signal, onProgress) {
      engine.seen.push(input);
      onProgress?.('inpaint', 0.5);
      if (engine.mode === 'fail') throw new Error('face edit failed (forced)');
      const out = faceEditOutputSize(input.width, input.height, input.input.resize_factor);
      const bytes = await sharp(input.imageBytes).resize(out.width, out.height, { fit: 'fill' }).jpeg({ quality: 92 }).toBuffer();
      return { bytes, format: 'jpg', width: out.width, height: out.height, meta: { engine: 'fake-face-edit', maskBytes: input.maskBytes?.length ?? 0 } };
    },
    async close() {},
  };
  return engine;
}
