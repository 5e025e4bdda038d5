import { createHash } from 'node:crypto';
import sharp from 'sharp';
import {
  IMAGE_GENERATION,
  ImageGenerationFieldsSchema,
  hasBannedKeyword,
  imageGenerationCost,
  type ImageGenerationCreated,
} from '@dewy/contracts';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { images } from '../../db/schema';
import { ownedKeyFromUrl } from '../uploads/image-urls';
import { AppError } from '../../lib/app-error';
import { getBalance } from '../credits/credits.service';
import { bannedKeywords } from '../settings/settings.service';
import { createToolJob, replayIdempotentJob, requestFingerprint } from '../tool-jobs/tool-jobs.service';
import { sniffImageType } from '../uploads/image-inspect';
import { discardDirectUpload, storeDirectUpload } from '../uploads/uploads.service';
import { imageGenerationTool } from './image-generation.tool';

/** The multipart file field of the reference image (002 §3). */
export const REFERENCE_FIELD = 'character_reference_images';

/** True for WebP bytes (`RIFF....WEBP`). */
function isWebp(b: Buffer): boolean {
  return b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP';
}

/**
 * Starts a generation (POST /api/kling/image-generation, 002 §3/§5/§7). Every rule of the page is
 * checked here before anything is stored or charged, in this order: Kling configured (NOT_CONFIGURED);
 * fields (VALIDATION_FAILED: num_images 1..4, aspect_ratio of 002 §5, prompt ≤ 2500 characters without
 * control characters); a prompt or a reference (GENERATION_INPUT_REQUIRED); banned keywords
 * (NSFW_PROMPT_BLOCKED); the reference's extension and bytes are jpg/jpeg/png/webp (GENERATION_IMAGE_TYPE);
 * the balance covers 15 × count (INSUFFICIENT_CREDITS). The reference then goes through the upload
 * pipeline (re-encoded, screened; WebP converted to PNG first) as a confirmed upload of kind `kling-ref`,
 * and the kernel charges, records and queues the job in one transaction (the balance is checked again
 * there under the user's row lock, so parallel requests never overspend).
 * @param fields the multipart text fields as sent
 * @param file the reference file, or null
 * @returns the queued job: `taskId` (the job id), `status` processing, `cost`, `credits` left
 */
export async function startGeneration(
  ctx: AppContext,
  userId: number,
  fields: Record<string, string>,
  file: { filename: string; bytes: Buffer } | null,
  opts: { idempotencyKey?: string } = {},
): Promise<ImageGenerationCreated> {
  if (!ctx.config.vendors.kling) throw new AppError('NOT_CONFIGURED');
  const parsed = ImageGenerationFieldsSchema.safeParse(fields);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', { details: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) });
  const { prompt, num_images, aspect_ratio } = parsed.data;
  const hasFile = file !== null && file.bytes.length > 0;
  if (!prompt && !hasFile) throw new AppError('GENERATION_INPUT_REQUIRED');
  if (prompt && hasBannedKeyword(prompt, await bannedKeywords(ctx))) throw new AppError('NSFW_PROMPT_BLOCKED');

  let referenceBytes: Buffer | null = null;
  if (hasFile) {
    const ext = file.filename.toLowerCase().split('.').pop() ?? '';
    const known = (IMAGE_GENERATION.extensions as readonly string[]).includes(ext);
    const webp = isWebp(file.bytes);
    if (!known || (!sniffImageType(file.bytes) && !webp)) throw new AppError('GENERATION_IMAGE_TYPE');
    referenceBytes = webp
      ? await sharp(file.bytes, { limitInputPixels: 50_000_000 })
          .rotate()
          .png()
          .toBuffer()
          .catch(() => {
            throw new AppError('IMAGE_CORRUPT');
          })
      : file.bytes;
  }
  // A retry under the same Idempotency-Key answers the first job before anything is stored or its
  // balance (already spent by the first request) is checked; the file is fingerprinted by its bytes.
  const requestHash = requestFingerprint({ prompt, num_images, aspect_ratio, reference: hasFile ? createHash('sha256').update(file.bytes).digest('hex') : null });
  const replay = await replayIdempotentJob(ctx, imageGenerationTool, userId, opts.idempotencyKey, requestHash);
  if (replay) return { success: true, status: replay.status, taskId: replay.jobId, images: [], partial: false, cost: replay.cost, credits: replay.credits };

  const cost = imageGenerationCost(num_images);
  if ((await getBalance(ctx.database.db, userId)).total < cost) throw new AppError('INSUFFICIENT_CREDITS');

  const reference = referenceBytes ? (await storeDirectUpload(ctx, userId, referenceBytes, 'kling-ref')).imageUrl : null;
  let job: Awaited<ReturnType<typeof createToolJob>>;
  try {
    job = await createToolJob(ctx, imageGenerationTool, userId, { prompt, num_images, aspect_ratio, reference }, { ...opts, requestHash });
  } catch (err) {
    if (reference) await discardDirectUpload(ctx, userId, reference); // refused (e.g. credits spent meanwhile): keep no file
    throw err;
  }
  // A parallel request under the same key won the race: this one's reference is not the job's.
  if (reference && opts.idempotencyKey && !(await jobUsesReference(ctx, userId, job.imageId, reference))) await discardDirectUpload(ctx, userId, reference);
  return { success: true, status: job.status, taskId: job.jobId, images: [], partial: false, cost: job.cost, credits: job.credits };
}

/** Whether the job row `imageId` was made with this reference (false for another request's job). */
async function jobUsesReference(ctx: AppContext, userId: number, imageId: number, reference: string): Promise<boolean> {
  const [row] = await ctx.database.db.select({ originalKey: images.originalKey }).from(images).where(eq(images.id, imageId));
  return row?.originalKey === ownedKeyFromUrl(ctx, userId, reference);
}
