import { createHash, randomInt, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { isUpscaleBlocked, upscaleCost, type CreateUpscaleResponse, type UpscaleInput } from '@dewy/contracts';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { images } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { refund, spend } from '../credits/credits.service';
import { ownedKeyFromUrl } from '../images/image-urls';
import { getConfirmedUpload } from '../uploads/uploads.service';
import { UPSCALE_JOB } from './upscale.job-name';

/**
 * Starts an upscale/retouch job (POST /api/runpod-upscale, spec 001 §4/§5/§9). The server never trusts
 * the page: it reads the stored image's real size, refuses the blocked case (factor ≠ 1 and scaled
 * width+height ≥ 4000), computes the cost itself, and in ONE transaction debits the ledger (one-time
 * credits first), inserts the history row (status processing) and enqueues the job. With an
 * idempotency key (header `Idempotency-Key`), a repeated request answers the first job and charges once.
 * @throws AppError FORBIDDEN (image not the caller's), NOT_FOUND (no such upload), UPSCALE_BLOCKED,
 *   INSUFFICIENT_CREDITS ('크레딧이 부족합니다.'), VALIDATION_FAILED.
 */
export async function createUpscaleJob(
  ctx: AppContext,
  userId: number,
  input: UpscaleInput,
  opts: { idempotencyKey?: string } = {},
): Promise<CreateUpscaleResponse> {
  const key = ownedKeyFromUrl(ctx, userId, input.image);
  const upload = await getConfirmedUpload(ctx, userId, key);
  const factor = Math.round(input.scale_factor * 100) / 100;
  if (isUpscaleBlocked(upload.width, upload.height, factor)) throw new AppError('UPSCALE_BLOCKED');
  const cost = upscaleCost(upload.width, upload.height, factor);
  const spendKey = opts.idempotencyKey
    ? `upscale:${userId}:${createHash('sha256').update(opts.idempotencyKey).digest('hex').slice(0, 32)}`
    : `upscale:${userId}:${randomUUID()}`;
  const seed = input.seed ?? randomInt(1, 10_001);

  return inTransaction(ctx.database.db, async (tx) => {
    const charged = await spend(tx, { userId, amount: cost, reason: 'upscale', idempotencyKey: spendKey });
    if (charged.replayed) {
      const prior = (await tx.select().from(images).where(eq(images.spendKey, spendKey)))[0];
      if (!prior) throw new AppError('INTERNAL', { message: 'replayed spend without its job' });
      return { success: true as const, jobId: prior.jobId, imageId: prior.id, status: prior.status, cost: prior.cost, credits: charged.balance.total };
    }
    const jobId = randomUUID();
    const [row] = await tx
      .insert(images)
      .values({
        userId,
        source: 'upscale',
        status: 'processing',
        jobId,
        originalKey: key,
        input: { ...input, scale_factor: factor, seed },
        prompt: input.prompt || null,
        seed,
        cost,
        spendKey,
        originalWidth: upload.width,
        originalHeight: upload.height,
        engine: ctx.engine.name,
      })
      .returning();
    const queueJobId = await ctx.queue.enqueue(UPSCALE_JOB, { imageId: row!.id }, { tx });
    await tx.update(images).set({ queueJobId }).where(eq(images.id, row!.id));
    return { success: true as const, jobId, imageId: row!.id, status: 'processing' as const, cost, credits: charged.balance.total };
  });
}

/**
 * Marks a processing job failed and refunds its credits, in one transaction. Only the first caller
 * that flips the status refunds; completion and failure are both conditional on `status =
 * 'processing'`, so a job ends completed or failed-and-refunded, never both and never neither.
 * @returns true when this call failed the job.
 */
export async function failAndRefund(db: DbOrTx, imageId: number, error: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(images)
      .set({ status: 'failed', error: error.slice(0, 500), updatedAt: new Date() })
      .where(and(eq(images.id, imageId), eq(images.status, 'processing')))
      .returning({ spendKey: images.spendKey });
    if (!row) return false;
    await refund(tx, { spendKey: row.spendKey, reason: 'job failed' });
    return true;
  });
}

/**
 * Recovery after a crash, run at start and periodically: a processing job whose queue job can no
 * longer run (missing, failed, expired, cancelled, completed without a result) is failed and refunded;
 * one still queued is left to resume. With `singleOwner` (embedded PGlite: no other process can be
 * working), jobs the queue still shows as active were orphaned by the crash and are failed too.
 * Jobs older than `maxAgeMs` are failed whatever the queue says.
 * @returns the image ids failed and refunded.
 */
export async function recoverStuckJobs(ctx: AppContext, opts: { singleOwner: boolean; maxAgeMs: number }): Promise<number[]> {
  const rows = await ctx.database.db
    .select({ id: images.id, queueJobId: images.queueJobId, createdAt: images.createdAt })
    .from(images)
    .where(eq(images.status, 'processing'));
  const failed: number[] = [];
  for (const r of rows) {
    const state = r.queueJobId ? await ctx.queue.jobState(UPSCALE_JOB, r.queueJobId) : null;
    const tooOld = Date.now() - r.createdAt.getTime() > opts.maxAgeMs;
    const resumable = state === 'created' || state === 'retry' || (state === 'active' && !opts.singleOwner);
    if (tooOld || !resumable) {
      if (await failAndRefund(ctx.database.db, r.id, `recovered after crash (queue state ${state ?? 'missing'})`)) failed.push(r.id);
    }
  }
  return failed;
}
