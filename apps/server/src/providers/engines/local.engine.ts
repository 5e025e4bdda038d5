import type { createEnginePool as CreateEnginePool } from '@dewy/engine';
import type { RetouchOptions } from '@dewy/engine';
import type { RetouchEngine, RetouchJobInput } from './retouch-engine';
import type { FaceEditEngine } from './face-edit-engine';

type Pool = ReturnType<typeof CreateEnginePool>;

/**
 * The local CPU engine: packages/engine (face landmarks, masks, retouch, ONNX super-resolution) in a
 * pool of worker threads, so the API's event loop never runs image work. The engine package (tfjs,
 * onnxruntime) is loaded on the first job, keeping the API's start fast.
 * @param cfg.modelsDir folder holding the ONNX super-resolution models (MODELS_DIR)
 * @param cfg.threads worker threads (each uses up to 2 intra-op threads)
 */
export function createLocalEngine(cfg: { modelsDir: string; threads: number; srMaxInputPixels: number }): RetouchEngine {
  let pool: Promise<Pool> | undefined;
  const getPool = () =>
    (pool ??= import('@dewy/engine').then((m) => m.createEnginePool({ modelsDir: cfg.modelsDir, threads: cfg.threads, srMaxInputPixels: cfg.srMaxInputPixels })));
  return {
    name: 'local',
    async run(input, signal, onProgress) {
      const r = await (await getPool()).run(input.imageBytes, engineOptions(input.input), signal, onProgress);
      return { bytes: r.bytes, format: r.format, width: r.width, height: r.height, meta: { ...r.meta } };
    },
    async close() {
      if (pool) await (await pool).destroy();
    },
  };
}

/**
 * The one mapping from the spec's wire input (001 §3, snake_case) to the engine package's options (which
 * cannot import contracts: the engine depends on nothing of ours).
 */
export function engineOptions(i: RetouchJobInput): RetouchOptions {
  return {
    loraIndex: i.lora_index,
    scaleFactor: i.scale_factor,
    filterIndex: i.filter_index,
    filterStrength: i.filter_strength,
    filterPrompt: i.filter_prompt,
    exclude: { upperLip: i.upper_lip, lowerLip: i.lower_lip, leftEyebrow: i.left_eyebrow, rightEyebrow: i.right_eyebrow, nose: i.nose, hair: i.hair },
    outputFormat: i.output_format,
    outputQuality: i.output_quality,
    seed: i.seed,
  };
}

/**
 * The local face-edit engine: exemplar-based inpainting (packages/engine) on worker threads.
 * Wired to the engine's face-edit task when it lands (issue 11); until then every run rejects.
 */
export function createLocalFaceEditEngine(_cfg: { threads: number }): FaceEditEngine {
  return {
    name: 'local',
    needsMask: true,
    async run() {
      throw new Error('FACE_EDIT_FAILED: the local face-edit engine is not built yet');
    },
    async close() {},
  };
}
