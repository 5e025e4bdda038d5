import { randomInt } from 'node:crypto';
import { isUpscaleBlocked, upscaleCost, UpscaleInputSchema } from '@dewy/contracts';
import { AppError } from '../../lib/app-error';
import { defineTool } from '../tool-jobs';

/**
 * Share of the whole job each engine stage ends at, for one progress bar across stages (the local
 * engine reports per-stage fractions; super-resolution dominates, decision 005's bench).
 */
const STAGE_SPAN: Record<string, [number, number]> = {
  decode: [0, 0.05],
  faces: [0.05, 0.15],
  resize: [0.15, 0.75],
  masks: [0.75, 0.8],
  retouch: [0.8, 0.92],
  encode: [0.92, 0.99],
  done: [1, 1],
};

/** Whole-job fraction 0..1 of a stage's own fraction; unknown stages keep the bar where it is (NaN → ignored). */
export function retouchJobFraction(stage: string, stageFraction: number): number {
  const span = STAGE_SPAN[stage];
  if (!span) return Number.NaN;
  const f = Math.min(1, Math.max(0, stageFraction));
  return span[0] + (span[1] - span[0]) * f;
}

/**
 * Retouch + super-resolution, the main job (spec 001 §3–§5, §9), as a tool of the kernel:
 * `POST /api/runpod-upscale {input}`. The server reads the stored photo's real size, refuses the
 * blocked case (factor ≠ 1 and scaled width+height ≥ 4000), computes the cost itself (80 under 2500 px,
 * then 100 + 5 per full 100 px), and picks the seed when the page sent none. The engine (local CPU or
 * RunPod, RETOUCH_ENGINE: the engine registry's `retouch`) receives the stored wire input as it is.
 */
export const retouchTool = defineTool({
  name: 'retouch',
  source: 'upscale',
  jobName: 'upscale',
  engine: 'retouch',
  input: UpscaleInputSchema,
  imageUrlOf: (input) => input.image,
  prepare(input, upload) {
    if (!upload) throw new AppError('VALIDATION_FAILED', { message: 'retouch needs an image' });
    const factor = Math.round(input.scale_factor * 100) / 100;
    if (isUpscaleBlocked(upload.width, upload.height, factor)) throw new AppError('UPSCALE_BLOCKED');
    return {
      input: { ...input, scale_factor: factor, seed: input.seed ?? randomInt(1, 10_001) },
      cost: upscaleCost(upload.width, upload.height, factor),
    };
  },
  async run(job, input) {
    const { row } = job;
    const result = await job.engine.run(
      {
        imageBytes: await job.readOriginal(),
        imageUrl: await job.originalUrl(),
        width: row.originalWidth!,
        height: row.originalHeight!,
        input: { ...input, seed: input.seed ?? row.seed ?? 1 },
      },
      job.signal,
      (stage, f) => {
        const whole = retouchJobFraction(stage, f);
        if (!Number.isNaN(whole)) job.progress(stage, whole);
      },
    );
    return result;
  },
});
