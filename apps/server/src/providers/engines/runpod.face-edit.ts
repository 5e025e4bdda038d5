import { absoluteImageUrl, createRunpodJobRunner, toResult, type RunpodEngineOptions } from './runpod.engine';
import type { FaceEditEngine, FaceEditEngineInput } from './face-edit-engine';

/** The `input` object of spec 001 §3/§7 (face-edit run input) as the RunPod worker reads it. */
export function buildRunpodFaceEditInput(input: FaceEditEngineInput, imageBaseUrl?: string) {
  return {
    image: absoluteImageUrl(input.imageUrl, imageBaseUrl),
    mask: input.maskUrl ? absoluteImageUrl(input.maskUrl, imageBaseUrl) : null,
    seed: input.input.seed,
    resize_factor: input.input.resize_factor,
    easy_value: input.input.easy_value,
  };
}

/**
 * Face edit on a RunPod serverless endpoint (generative; the spec's `POST /api/runpod-face-edit` input),
 * through the shared RunPod job runner: the worker fetches the photo and mask from signed URLs; the
 * result is stored as the JPEG/PNG it returns (anything else re-encoded to JPEG).
 */
export function createRunpodFaceEditEngine(opts: RunpodEngineOptions): FaceEditEngine {
  const runner = createRunpodJobRunner(opts);
  return {
    name: 'runpod',
    needsMask: false,
    async run(input, signal) {
      signal?.throwIfAborted();
      const job = await runner.run(buildRunpodFaceEditInput(input, opts.imageBaseUrl), signal);
      const result = await toResult(job.bytes, 'jpg', 92, job.jobId);
      result.meta = { ...result.meta, engine: 'runpod', runpodJobId: job.jobId, delayTimeMs: job.delayTimeMs, executionTimeMs: job.executionTimeMs, totalMs: job.totalMs };
      return result;
    },
    async close() {},
  };
}
