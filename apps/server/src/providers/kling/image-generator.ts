/**
 * Image generation as OUR use needs it (GUIDE §2 providers: an interface shaped by our use, not the
 * vendor's API): one call that turns a prompt, a count, an aspect ratio and an optional reference image
 * into finished image bytes. The Kling adapter (kling.generator.ts) is the one implementation; a test or
 * another vendor can stand in for it.
 */
export interface GenerationRequest {
  /** Text prompt (≤ 2500 characters); never empty (the tool fills a default for a reference-only run). */
  prompt: string;
  /** Images wanted, 1..4 (002 §5). */
  count: number;
  /** Aspect ratio as `W:H` (e.g. `1:1`, `3:4`). */
  aspectRatio: string;
  /** Reference image bytes (JPEG/PNG as our upload pipeline stored them), or null for text only. */
  reference: Buffer | null;
}

/** One finished image, fetched from the vendor into memory (its URL expires; we store the bytes at once). */
export interface GeneratedImage {
  bytes: Buffer;
  format: 'jpg' | 'png';
  width: number;
  height: number;
}

export interface GenerationResult {
  /** The vendor's task id (history `kling_task_id`). */
  taskId: string;
  /** The images delivered, in the vendor's order; fewer than requested = a partial result. */
  images: GeneratedImage[];
}

export interface ImageGenerator {
  /** Engine name recorded on the job row (e.g. `kling:kling-v1-5`). */
  readonly name: string;
  /**
   * Runs one generation to its end: submits, waits for the vendor's final state, fetches the images.
   * @param onTask called once with the vendor task id as soon as it is known
   * @throws AppError with a vendor failure code (GENERATION_FAILED, GENERATION_SAFETY_BLOCKED,
   *   VENDOR_AUTH_FAILED, VENDOR_BUSY, VENDOR_UNAVAILABLE) or the signal's reason when aborted
   */
  generate(req: GenerationRequest, signal: AbortSignal, onTask?: (taskId: string) => void): Promise<GenerationResult>;
}
