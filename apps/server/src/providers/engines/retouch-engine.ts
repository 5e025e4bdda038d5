import type { UpscaleInput } from '@dewy/contracts';

/**
 * A retouch/upscale engine, shaped by our use: the tool gives it the stored photo and the request
 * input exactly as validated and charged (the spec's wire shape, `UpscaleInput` of contracts, declared
 * once), and gets the finished image back. Adapters: local CPU (packages/engine in worker threads; the
 * one place the wire input is mapped to the engine's options) and RunPod serverless (`/run` +
 * `/status/{id}`; sends the wire input as it is), chosen by config (RETOUCH_ENGINE).
 */

/** The stored input of a retouch job: the request input with the server-chosen seed and factor. */
export type RetouchJobInput = UpscaleInput & { seed: number };

export interface RetouchEngineInput {
  /** The original photo's bytes (JPEG or PNG). */
  imageBytes: Buffer;
  /** A signed absolute URL of the same photo, for remote engines that fetch it themselves. */
  imageUrl: string;
  /** Width and height of the original (px), as the server measured it. */
  width: number;
  height: number;
  input: RetouchJobInput;
}

export interface RetouchEngineResult {
  bytes: Buffer;
  format: 'jpg' | 'png';
  width: number;
  height: number;
  /** Free-form facts for logs and history (faces found, model used, stage timings in ms). */
  meta: Record<string, unknown>;
}

/** Progress of a running job: engine stage and its 0..1 completion. */
export type EngineProgress = (stage: string, fraction: number) => void;

export interface RetouchEngine {
  readonly name: string;
  /** Runs the job to the end; rejects on failure or when `signal` aborts. */
  run(input: RetouchEngineInput, signal?: AbortSignal, onProgress?: EngineProgress): Promise<RetouchEngineResult>;
  /** Readies the engine ahead of the first job (models loaded, SR warmed); returns at once. Optional. */
  warmUp?(): void;
  close(): Promise<void>;
}
