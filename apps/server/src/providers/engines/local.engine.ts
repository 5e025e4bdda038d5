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
export function createLocalEngine(cfg: { modelsDir: string; threads: number }, pool: LocalPool = createLocalPool(cfg)): RetouchEngine {
  pool.acquire();
  return {
    name: 'local',
    async run(input, signal, onProgress) {
      const r = await (await pool.get()).run(input.imageBytes, engineOptions(input.input), signal, onProgress);
      return { bytes: r.bytes, format: r.format, width: r.width, height: r.height, meta: { ...r.meta } };
    },
    warmUp: () => pool.warmUp(),
    close: () => pool.release(),
  };
}

/**
 * The engine package's worker pool, shared by every local engine of a process (retouch and face edit
 * run on the same workers, so the machine's cores are not split between two pools). Started on the
 * first job; destroyed when the last engine using it closes.
 */
export interface LocalPool {
  get(): Promise<Pool>;
  /** Starts the pool now (its worker loads the models and readies SR) instead of on the first job. */
  warmUp(): void;
  acquire(): void;
  release(): Promise<void>;
}

/** A lazily started pool for `cfg` (see LocalPool). */
export function createLocalPool(cfg: { modelsDir: string; threads: number; warmUpSr?: boolean }): LocalPool {
  let pool: Promise<Pool> | undefined;
  let users = 0;
  return {
    get: () =>
      (pool ??= import('@dewy/engine').then((m) => m.createEnginePool({ modelsDir: cfg.modelsDir, threads: cfg.threads, warmUpSr: cfg.warmUpSr }))),
    warmUp() {
      void this.get().catch(() => undefined);
    },
    acquire() {
      users++;
    },
    async release() {
      users--;
      if (users <= 0 && pool) {
        const p = pool;
        pool = undefined;
        await (await p).destroy();
      }
    },
  };
}

/**
 * The engine's face-edit errors as one failure (the job stores JOB_FAILED and this detail; the page
 * shows its FACE_EDIT_FAILED text for any failed face edit, 001 §8). Aborts pass through.
 */
function faceEditError(err: unknown): Error {
  if (err instanceof Error && err.name === 'AbortError') return err;
  const msg = err instanceof Error ? err.message : String(err);
  return new Error(`face edit failed (${msg})`, { cause: err });
}

/**
 * The local face-edit engine: exemplar-based inpainting (packages/engine `faceEditImage`: PatchMatch
 * over a pyramid of a window around the mask, gradient-domain blend) on the shared worker pool.
 */
export function createLocalFaceEditEngine(cfg: { modelsDir: string; threads: number }, pool: LocalPool = createLocalPool(cfg)): FaceEditEngine {
  pool.acquire();
  return {
    name: 'local',
    needsMask: true,
    async run(input, signal, onProgress) {
      if (!input.maskBytes) throw new Error('face edit failed (the local engine needs a mask)');
      try {
        const r = await (await pool.get()).faceEdit(
          input.imageBytes,
          input.maskBytes,
          { seed: input.input.seed, strength: input.input.easy_value, resizeFactor: input.input.resize_factor },
          signal,
          onProgress,
        );
        return { bytes: r.buffer, format: r.mime === 'image/png' ? 'png' : 'jpg', width: r.width, height: r.height, meta: { engine: 'local-inpaint', ...r.meta } };
      } catch (err) {
        throw faceEditError(err);
      }
    },
    close: () => pool.release(),
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
