import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { BatchCreateRequest, BatchPhotoStatus, BatchPhotoView, BatchView } from '@dewy/contracts';
import { BATCH_LIMITS } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { batches, batchPhotos, jobs, type BatchPhotoRow, type BatchRow, type JobRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { cancelQueuedJob, createToolJob, userActor, type ToolDefinition } from '../tool-jobs';
import { ownedKeyFromUrl, viewUrl } from '../uploads';

/** The tool a batch runs (its job name) from the context's tools; NOT_FOUND for an unknown one. */
function toolOf(ctx: AppContext, jobName: string): ToolDefinition {
  const tool = ctx.tools.find((t) => t.jobName === jobName);
  if (!tool) throw new AppError('NOT_FOUND');
  return tool;
}

/**
 * Submits one photo of a batch as a job of the kernel (charged there, under an idempotency key per
 * photo and attempt, so a resent request never charges twice) and records the outcome on the photo:
 * its job, or why none was started (`refused_code`: an AppError's code, e.g. INSUFFICIENT_CREDITS,
 * UPSCALE_BLOCKED, NOT_FOUND for an upload that is not the account's).
 * @returns the refusal code, or null when a job was started
 * @throws what is not an AppError (a database failure): the photo then stays `pending`
 */
async function submitPhoto(ctx: AppContext, batch: BatchRow, photo: BatchPhotoRow): Promise<string | null> {
  const tool = toolOf(ctx, batch.tool);
  const attempt = photo.attempts + 1;
  try {
    const input = tool.input.parse({ ...(batch.options as Record<string, unknown>), image: photo.image });
    const created = await createToolJob(ctx, tool, userActor(batch.userId), input, { idempotencyKey: `batch:${batch.id}:${photo.position}:${attempt}`, batchId: batch.id });
    await ctx.database.db.update(batchPhotos).set({ jobRowId: created.imageId, refusedCode: null, attempts: attempt }).where(eq(batchPhotos.id, photo.id));
    return null;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    await ctx.database.db.update(batchPhotos).set({ refusedCode: err.code, jobRowId: null, attempts: attempt }).where(eq(batchPhotos.id, photo.id));
    return err.code;
  }
}

/**
 * Submits photos in their order; once one is refused for INSUFFICIENT_CREDITS the photos after it are
 * refused the same way without being tried (decision 040 §4: credits for 30 of 50 → the first 30 run,
 * the other 20 say "not enough credits"; nothing is half-charged, each photo is one charge).
 */
async function submitInOrder(ctx: AppContext, batch: BatchRow, photos: BatchPhotoRow[]): Promise<void> {
  let outOfCredits = false;
  for (const photo of photos) {
    if (outOfCredits) {
      await ctx.database.db.update(batchPhotos).set({ refusedCode: 'INSUFFICIENT_CREDITS', jobRowId: null }).where(eq(batchPhotos.id, photo.id));
      continue;
    }
    outOfCredits = (await submitPhoto(ctx, batch, photo)) === 'INSUFFICIENT_CREDITS';
  }
}

/**
 * Starts a batch (issue 24, decision 040 §4): records the batch and its photos, then submits each photo
 * as one job of the kernel, in order, under the batch's id ({@link submitInOrder}). With an
 * `idempotencyKey` a resent batch answers the first one (submitting the photos it had not reached yet).
 * @param userId the signed-in owner (every photo must be one of the account's uploads)
 * @returns the batch as {@link getBatch} answers it
 * @throws AppError VALIDATION_FAILED (over BATCH_LIMITS.maxPhotos), MAINTENANCE; per-photo errors are recorded, not thrown
 */
export async function createBatch(ctx: AppContext, userId: number, req: BatchCreateRequest, idempotencyKey?: string): Promise<BatchView> {
  if (req.photos.length > BATCH_LIMITS.maxPhotos) throw new AppError('VALIDATION_FAILED', { details: [{ field: 'photos', rule: 'max' }] });
  toolOf(ctx, req.tool);
  const db = ctx.database.db;
  if (idempotencyKey) {
    const [prior] = await db.select().from(batches).where(and(eq(batches.userId, userId), eq(batches.idempotencyKey, idempotencyKey)));
    if (prior) return resumePending(ctx, prior);
  }
  const id = randomUUID();
  const inserted = await db
    .insert(batches)
    .values({ id, userId, tool: req.tool, options: req.options, idempotencyKey: idempotencyKey ?? null })
    .onConflictDoNothing()
    .returning();
  if (!inserted.length) {
    // A parallel request under the same key recorded it first: answer that one.
    const [prior] = await db.select().from(batches).where(and(eq(batches.userId, userId), eq(batches.idempotencyKey, idempotencyKey!)));
    if (!prior) throw new AppError('INTERNAL', { message: 'batch insert conflicted without a prior batch' });
    return resumePending(ctx, prior);
  }
  const photos = await db
    .insert(batchPhotos)
    .values(req.photos.map((p, position) => ({ batchId: id, position, name: p.name, image: p.image })))
    .returning();
  photos.sort((a, b) => a.position - b.position);
  await submitInOrder(ctx, inserted[0]!, photos);
  return getBatch(ctx, userId, id);
}

/** Submits a batch's photos that were never tried (a request cut off mid-way, or its replay), then answers the batch. */
async function resumePending(ctx: AppContext, batch: BatchRow): Promise<BatchView> {
  const photos = await ctx.database.db.select().from(batchPhotos).where(eq(batchPhotos.batchId, batch.id)).orderBy(asc(batchPhotos.position));
  const untried = photos.filter((p) => p.attempts === 0 && p.jobRowId === null && p.refusedCode === null);
  if (untried.length) await submitInOrder(ctx, batch, untried);
  return getBatch(ctx, batch.userId, batch.id);
}

/** One of `userId`'s batches; another account's or an unknown id is NOT_FOUND. */
async function ownBatch(ctx: AppContext, userId: number, batchId: string): Promise<BatchRow> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(batchId)) throw new AppError('NOT_FOUND');
  const [batch] = await ctx.database.db.select().from(batches).where(and(eq(batches.id, batchId), eq(batches.userId, userId)));
  if (!batch) throw new AppError('NOT_FOUND');
  return batch;
}

function photoStatus(photo: BatchPhotoRow, job: JobRow | undefined): BatchPhotoStatus {
  if (job) return job.status === 'completed' ? 'completed' : job.status === 'failed' ? 'failed' : 'processing';
  return photo.refusedCode ? 'refused' : 'pending';
}

/** The photos of a batch with their current jobs, in order. */
async function photosWithJobs(ctx: AppContext, batchId: string): Promise<{ photo: BatchPhotoRow; job: JobRow | undefined }[]> {
  const db = ctx.database.db;
  const photos = await db.select().from(batchPhotos).where(eq(batchPhotos.batchId, batchId)).orderBy(asc(batchPhotos.position));
  const ids = photos.map((p) => p.jobRowId).filter((x): x is number => x !== null);
  const rows = ids.length ? await db.select().from(jobs).where(inArray(jobs.id, ids)) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return photos.map((photo) => ({ photo, job: photo.jobRowId === null ? undefined : byId.get(photo.jobRowId) }));
}

/**
 * A batch as the page shows it: each photo's status, current job, cost, error code, signed original
 * and result URLs and size; counts per status; credits charged and not refunded.
 * @throws AppError NOT_FOUND (not the account's)
 */
export async function getBatch(ctx: AppContext, userId: number, batchId: string): Promise<BatchView> {
  const batch = await ownBatch(ctx, userId, batchId);
  const items = await photosWithJobs(ctx, batch.id);
  const photos: BatchPhotoView[] = [];
  const { counts, charged } = tally(items);
  for (const { photo, job } of items) {
    const status = photoStatus(photo, job);
    const originalKey = job?.originalKey ?? safeOwnedKey(ctx, userId, photo.image);
    photos.push({
      position: photo.position,
      name: photo.name,
      status,
      jobId: job?.jobId ?? null,
      cost: job?.cost ?? 0,
      error: status === 'failed' ? (job?.errorCode ?? 'JOB_FAILED') : status === 'refused' ? photo.refusedCode : null,
      originalUrl: originalKey ? await viewUrl(ctx, originalKey) : null,
      resultUrl: job?.status === 'completed' && job.resultKey && !job.expiredAt ? await viewUrl(ctx, job.resultKey) : null,
      width: job?.width ?? null,
      height: job?.height ?? null,
      attempts: photo.attempts,
    });
  }
  return { id: batch.id, tool: batch.tool, createdAt: batch.createdAt.toISOString(), photos, counts, charged };
}

/** Photos per status and the credits charged and not refunded, over a batch's current jobs. */
function tally(items: { photo: BatchPhotoRow; job: JobRow | undefined }[]): Pick<BatchView, 'counts' | 'charged'> {
  const counts = { pending: 0, processing: 0, completed: 0, failed: 0, refused: 0 };
  let charged = 0;
  for (const { photo, job } of items) {
    counts[photoStatus(photo, job)] += 1;
    if (job && job.status !== 'failed') charged += job.cost;
  }
  return { counts, charged };
}

/** The storage key of an imageUrl when it is one of the account's, else null (a refused photo may name anything). */
function safeOwnedKey(ctx: AppContext, userId: number, url: string): string | null {
  try {
    return ownedKeyFromUrl(ctx, userId, url);
  } catch {
    return null;
  }
}

/** The account's latest batches (at most BATCH_LIMITS.listMax), newest first, with counts but no photos. */
export async function listBatches(ctx: AppContext, userId: number) {
  const rows = await ctx.database.db.select().from(batches).where(eq(batches.userId, userId)).orderBy(desc(batches.createdAt), desc(batches.id)).limit(BATCH_LIMITS.listMax);
  const out = [];
  // Counts only: no photo's URLs are signed for the list (a batch's own answer signs them).
  for (const b of rows) {
    const items = await photosWithJobs(ctx, b.id);
    out.push({ id: b.id, tool: b.tool, createdAt: b.createdAt.toISOString(), ...tally(items), photoCount: items.length });
  }
  return out;
}

/**
 * Cancels every photo of the batch that no worker has started (each through the kernel's
 * {@link cancelQueuedJob}: failed with JOB_CANCELLED and refunded at once); photos already running
 * finish. Idempotent. "Pause" on the page is this; "resume" is {@link resumeBatch}.
 * @returns the batch after it
 */
export async function cancelBatch(ctx: AppContext, userId: number, batchId: string): Promise<BatchView> {
  const batch = await ownBatch(ctx, userId, batchId);
  for (const { job } of await photosWithJobs(ctx, batch.id)) {
    if (!job || job.status !== 'processing' || job.heartbeatAt) continue;
    await cancelQueuedJob(ctx, userId, job.jobId).catch((err: unknown) => {
      if (!(err instanceof AppError && err.code === 'JOB_NOT_CANCELLABLE')) throw err; // started meanwhile: it runs
    });
  }
  return getBatch(ctx, userId, batch.id);
}

/**
 * Starts again, in order, every photo of the batch whose job was cancelled or that was refused for
 * credits (after a pause, or once credits were bought): each a new job, charged anew. Photos that
 * failed for another reason are retried one by one ({@link retryBatchPhoto}).
 */
export async function resumeBatch(ctx: AppContext, userId: number, batchId: string): Promise<BatchView> {
  const batch = await ownBatch(ctx, userId, batchId);
  const again = (await photosWithJobs(ctx, batch.id))
    .filter(({ photo, job }) => (job?.status === 'failed' && job.errorCode === 'JOB_CANCELLED') || (!job && photo.refusedCode === 'INSUFFICIENT_CREDITS'))
    .map(({ photo }) => photo);
  if (again.length) await submitInOrder(ctx, batch, again);
  return getBatch(ctx, userId, batch.id);
}

/**
 * Retries one photo whose job failed (refunded) or that was refused: a new job of the kernel, charged
 * anew under a new idempotency key (the photo's next attempt).
 * @throws AppError NOT_FOUND (no such photo), JOB_NOT_CANCELLABLE is never thrown here; a photo still
 *   processing or completed is refused with VALIDATION_FAILED (`photo` `state`)
 */
export async function retryBatchPhoto(ctx: AppContext, userId: number, batchId: string, position: number): Promise<BatchView> {
  const batch = await ownBatch(ctx, userId, batchId);
  const item = (await photosWithJobs(ctx, batch.id)).find((x) => x.photo.position === position);
  if (!item) throw new AppError('NOT_FOUND');
  const status = photoStatus(item.photo, item.job);
  if (status !== 'failed' && status !== 'refused') throw new AppError('VALIDATION_FAILED', { message: `photo is ${status}`, details: [{ field: 'photo', rule: 'state' }] });
  await submitPhoto(ctx, batch, item.photo);
  return getBatch(ctx, userId, batch.id);
}

/**
 * The finished photos of a batch for its zip: their result keys and entry names (the original file
 * names, see resultZipEntryNames), in the batch's order.
 */
export async function batchZipEntries(ctx: AppContext, userId: number, batchId: string): Promise<{ originals: string[]; keys: string[] }> {
  const batch = await ownBatch(ctx, userId, batchId);
  const done = (await photosWithJobs(ctx, batch.id)).filter(({ job }) => job?.status === 'completed' && job.resultKey && !job.expiredAt);
  return { originals: done.map(({ photo }) => photo.name), keys: done.map(({ job }) => job!.resultKey!) };
}
