import type { createEnginePool as CreateEnginePool } from '@dewy/engine';
import type { RetouchEngine } from './retouch-engine';

type Pool = ReturnType<typeof CreateEnginePool>;

/**
 * The local CPU engine: packages/engine (face landmarks, masks, retouch, ONNX super-resolution) in a
 * pool of worker threads, so the API's event loop never runs image work. The engine package (tfjs,
 * onnxruntime) is loaded on the first job, keeping the API's start fast.
 * @param cfg.modelsDir folder holding the ONNX super-resolution models (MODELS_DIR)
 * @param cfg.threads worker threads (each uses up to 2 intra-op threads)
 */
export function createLocalEngine(cfg: { modelsDir: string; threads: number }): RetouchEngine {
  let pool: Promise<Pool> | undefined;
  const getPool = () => (pool ??= import('@dewy/engine').then((m) => m.createEnginePool({ modelsDir: cfg.modelsDir, threads: cfg.threads })));
  return {
    name: 'local',
    async run(input, signal) {
      const r = await (await getPool()).run(input.imageBytes, { ...input.options }, signal);
      return { bytes: r.bytes, format: r.format, width: r.width, height: r.height, meta: { ...r.meta } };
    },
    async close() {
      if (pool) await (await pool).destroy();
    },
  };
}
