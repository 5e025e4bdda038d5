import type { FaceEditInput } from '@dewy/contracts';
import type { EngineProgress, RetouchEngineResult } from './retouch-engine';

/**
 * A face-edit engine (issue 11): repaints the masked region of a portrait. Adapters: local CPU
 * (exemplar-based inpainting in packages/engine, worker threads) and RunPod serverless (the spec's
 * generative face-edit input), chosen by FACE_EDIT_ENGINE.
 */

/** The stored input of a face-edit job: the request input with the server-chosen seed. */
export type FaceEditJobInput = FaceEditInput & { seed: number };

export interface FaceEditEngineInput {
  /** The original photo (JPEG/PNG as stored). */
  imageBytes: Buffer;
  /** Signed absolute URL of the same photo, for remote engines. */
  imageUrl: string;
  /** The mask PNG (white = change), or null when the input has none. */
  maskBytes: Buffer | null;
  maskUrl: string | null;
  /** Size of the original as the server measured it (px). */
  width: number;
  height: number;
  input: FaceEditJobInput;
}

export interface FaceEditEngine {
  readonly name: string;
  /** Whether the engine can work without a mask (a generative one edits the face; inpainting cannot). */
  readonly needsMask: boolean;
  /** Runs the job; rejects on failure or when `signal` aborts. */
  run(input: FaceEditEngineInput, signal?: AbortSignal, onProgress?: EngineProgress): Promise<RetouchEngineResult>;
  close(): Promise<void>;
}
