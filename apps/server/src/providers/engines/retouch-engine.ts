/**
 * A retouch/upscale engine, shaped by our use: the job handler gives it the stored photo and the
 * validated options and gets the finished image back. Adapters: local CPU (packages/engine in worker
 * threads) and RunPod serverless (`/run` + `/status/{id}`), chosen by config (RETOUCH_ENGINE).
 */
export interface RetouchEngineOptions {
  /** Model index of 001 §5 (0..8) that selects the retouch parameter set. */
  loraIndex: number;
  /** 0 < factor ≤ 2. Output size = round(input × factor) per side. */
  scaleFactor: number;
  /** 0 = none/studio, 1 = fair skin ('ppoyong'). */
  filterIndex: 0 | 1;
  /** 0..1; 0.01 with filterIndex 0 and empty prompt means no filter. */
  filterStrength: number;
  filterPrompt: string;
  exclude: { upperLip: boolean; lowerLip: boolean; leftEyebrow: boolean; rightEyebrow: boolean; nose: boolean; hair: boolean };
  outputFormat: 'jpg' | 'png';
  outputQuality: number;
  seed: number;
  prompt: string;
}

export interface RetouchEngineInput {
  /** The original photo's bytes (JPEG or PNG). */
  imageBytes: Buffer;
  /** A signed URL of the same photo, for remote engines that fetch it themselves. */
  imageUrl: string;
  /** Width and height of the original (px). */
  width: number;
  height: number;
  options: RetouchEngineOptions;
}

export interface RetouchEngineResult {
  bytes: Buffer;
  format: 'jpg' | 'png';
  width: number;
  height: number;
  /** Free-form facts for logs and history (faces found, model used, stage timings in ms). */
  meta: Record<string, unknown>;
}

export interface RetouchEngine {
  readonly name: string;
  /** Runs the job to the end; rejects on failure or when `signal` aborts. */
  run(input: RetouchEngineInput, signal?: AbortSignal): Promise<RetouchEngineResult>;
  close(): Promise<void>;
}
