import sharp from 'sharp';
import type { RetouchEngine, RetouchEngineInput, RetouchEngineResult } from '../../src/providers/engines/retouch-engine';

/**
 * A retouch engine for service tests: resizes with sharp to round(w×f) × round(h×f) so results are
 * real images of the right size, and can be told to fail or to hang until aborted.
 */
export interface FakeEngine extends RetouchEngine {
  mode: 'ok' | 'fail' | 'hang';
  delayMs: number;
  runs: number;
}

export function createFakeEngine(): FakeEngine {
  const engine: FakeEngine = {
    name: 'fake',
    mode: 'ok',
    delayMs: 0,
    runs: 0,
    async run(input: RetouchEngineInput, signal?: AbortSignal, onProgress?: (stage: string, fraction: number) => void): Promise<RetouchEngineResult> {
      engine.runs++;
      onProgress?.('decode', 0.1);
      if (engine.mode === 'fail') throw new Error('forced engine failure');
      if (engine.mode === 'hang' || engine.delayMs > 0) {
        await new Promise<void>((resolve, reject) => {
          const t = engine.mode === 'hang' ? undefined : setTimeout(resolve, engine.delayMs);
          signal?.addEventListener('abort', () => {
            if (t) clearTimeout(t);
            reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
          });
        });
      }
      onProgress?.('resize', 0.5);
      const f = input.input.scale_factor;
      const width = Math.round(input.width * f);
      const height = Math.round(input.height * f);
      const png = input.input.output_format === 'png';
      const img = sharp(input.imageBytes).rotate().resize(width, height, { fit: 'fill' });
      const bytes = await (png ? img.png() : img.jpeg({ quality: 95 })).toBuffer();
      return { bytes, format: png ? 'png' : 'jpg', width, height, meta: { engine: 'fake' } };
    },
    async close() {},
  };
  return engine;
}
