import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { UpscaleInput } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { images } from '../../db/schema';
import type { JobDefinition } from '../../jobs/queue';
import type { RetouchEngineOptions } from '../../providers/engines/retouch-engine';
import { viewUrl } from '../images/image-urls';
import { UPSCALE_JOB } from './upscale.job-name';
import { failAndRefund } from './upscale.service';

export const UpscaleJobPayloadSchema = z.object({ imageId: z.number().int().positive() });

/** Maps the spec's request input (001 §3) to the engine's options. */
export function engineOptionsFromInput(input: UpscaleInput & { seed: number }): RetouchEngineOptions {
  return {
    loraIndex: input.lora_index,
    scaleFactor: input.scale_factor,
    filterIndex: input.filter_index,
    filterStrength: input.filter_strength,
    filterPrompt: input.filter_prompt,
    exclude: {
      upperLip: input.upper_lip,
      lowerLip: input.lower_lip,
      leftEyebrow: input.left_eyebrow,
      rightEyebrow: input.right_eyebrow,
      nose: input.nose,
      hair: input.hair,
    },
    outputFormat: input.output_format,
    outputQuality: input.output_quality,
    seed: input.seed,
    prompt: input.prompt,
  };
}

/**
 * The upscale job (GUIDE §3 step 3): runs the engine on the stored original, stores the result and
 * marks the row completed — conditionally on it still being `processing`; on any failure (engine
 * error, timeout, missing file) it marks the row failed and refunds, once. Idempotent: a row that is
 * no longer processing is left alone.
 */
export function upscaleJob(ctx: AppContext): JobDefinition<typeof UpscaleJobPayloadSchema> {
  return {
    name: UPSCALE_JOB,
    payload: UpscaleJobPayloadSchema,
    expireInSeconds: ctx.config.workers.jobTimeoutSeconds,
    async handler({ imageId }, { signal }) {
      const db = ctx.database.db;
      const row = (await db.select().from(images).where(eq(images.id, imageId)))[0];
      if (!row || row.status !== 'processing') return;
      let resultKey: string | undefined;
      try {
        const input = row.input as UpscaleInput & { seed: number };
        const imageBytes = await ctx.storage.get(row.originalKey);
        const result = await ctx.engine.run(
          {
            imageBytes,
            imageUrl: new URL(await viewUrl(ctx, row.originalKey, { ttlSeconds: ctx.config.workers.jobTimeoutSeconds }), ctx.config.publicUrl).toString(),
            width: row.originalWidth,
            height: row.originalHeight,
            options: engineOptionsFromInput(input),
          },
          signal,
        );
        signal.throwIfAborted();
        resultKey = `u/${row.userId}/results/${row.jobId}.${result.format === 'png' ? 'png' : 'jpg'}`;
        await ctx.storage.put(resultKey, result.bytes, result.format === 'png' ? 'image/png' : 'image/jpeg');
        const done = await db
          .update(images)
          .set({ status: 'completed', resultKey, width: result.width, height: result.height, meta: result.meta, updatedAt: new Date(), completedAt: new Date() })
          .where(and(eq(images.id, imageId), eq(images.status, 'processing')))
          .returning({ id: images.id });
        if (done.length === 0) await ctx.storage.delete(resultKey).catch(() => {}); // failed meanwhile (timeout reaper): keep no orphan
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        console.error(`[upscale] job ${row.jobId} failed: ${message}`);
        if (resultKey) await ctx.storage.delete(resultKey).catch(() => {});
        await failAndRefund(db, imageId, message);
      }
    },
  };
}
