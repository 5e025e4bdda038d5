import { and, desc, eq } from 'drizzle-orm';
import type { HistoryImage, HistoryResponse, HistorySource, JobStatus, JobStatusResponse } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { images, uploads, type ImageRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { sniffImageType } from '../uploads/image-inspect';
import { ownedKeyFromUrl, viewUrl } from './image-urls';

/** A history row as the page sees it (001 §3), with signed, expiring URLs. */
export async function presentHistoryImage(ctx: AppContext, row: ImageRow): Promise<HistoryImage> {
  const imageUrl = row.resultKey ? await viewUrl(ctx, row.resultKey) : null;
  const originalUrl = row.originalKey ? await viewUrl(ctx, row.originalKey) : null;
  return {
    id: row.id,
    image_url: imageUrl,
    original_image_url: originalUrl,
    thumbnail_url: imageUrl ?? originalUrl,
    all_image_urls: imageUrl ? [imageUrl] : [],
    status: row.status,
    source: row.source as HistorySource,
    runpod_job_id: row.jobId,
    prompt: row.prompt,
    seed: row.seed,
    cost: row.cost,
    width: row.width,
    height: row.height,
    original_width: row.originalWidth,
    original_height: row.originalHeight,
    kling_task_id: null,
    seedream_task_id: null,
    input: (row.input as Record<string, unknown> | null) ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    expired_at: row.expiredAt?.toISOString() ?? null,
  };
}

/**
 * Status of one of the caller's jobs (GET /api/image/status/{jobId}). Another user's job id answers
 * NOT_FOUND, the same as a job that does not exist.
 */
export async function jobStatus(ctx: AppContext, userId: number, jobId: string): Promise<JobStatusResponse> {
  const row = (await ctx.database.db.select().from(images).where(and(eq(images.jobId, jobId), eq(images.userId, userId))))[0];
  if (!row) throw new AppError('NOT_FOUND');
  const imageUrl = row.resultKey && row.status === 'completed' ? await viewUrl(ctx, row.resultKey) : null;
  return {
    status: row.status,
    imageUrl,
    originalImageUrl: row.originalKey ? await viewUrl(ctx, row.originalKey) : null,
    images: imageUrl ? [imageUrl] : [],
    error: row.status === 'failed' ? 'JOB_FAILED' : null,
  };
}

/**
 * The caller's history, newest first (GET /api/image/history/{userId}). Asking for another user's
 * history is refused.
 * @throws AppError FORBIDDEN when `requestedUserId` is not the caller.
 */
export async function listHistory(
  ctx: AppContext,
  userId: number,
  requestedUserId: number,
  q: { source?: HistorySource; status?: JobStatus; limit: number; offset: number },
): Promise<HistoryResponse> {
  if (requestedUserId !== userId) throw new AppError('FORBIDDEN');
  const where = and(eq(images.userId, userId), q.source ? eq(images.source, q.source) : undefined, q.status ? eq(images.status, q.status) : undefined);
  const rows = await ctx.database.db.select().from(images).where(where).orderBy(desc(images.createdAt), desc(images.id)).limit(q.limit + 1).offset(q.offset);
  const page = rows.slice(0, q.limit);
  return {
    images: await Promise.all(page.map((r) => presentHistoryImage(ctx, r))),
    pagination: { hasMore: rows.length > q.limit, nextOffset: rows.length > q.limit ? q.offset + q.limit : null },
  };
}

function downloadName(key: string): string {
  const ext = key.split('.').pop() ?? 'jpg';
  const base = key.split('/').pop()?.split('.')[0]?.slice(0, 8) ?? 'image';
  return `dewy-${base}.${ext}`;
}

/**
 * The storage key behind an image URL, when the caller may read it (docs/decisions/009): one of the
 * caller's confirmed uploads (`uploads.status = 'confirmed'`), or the result of one of the caller's
 * completed jobs (`images.result_key`). Checked against the database, not only the `u/<id>/` prefix:
 * a pending or refused upload, an incoming object, or anything else under the prefix answers NOT_FOUND.
 * Every call that hands out or serves a user-named object (presign-download, the download proxy) goes
 * through here.
 * @throws AppError VALIDATION_FAILED (no key in the URL), FORBIDDEN (another user's prefix), NOT_FOUND.
 */
export async function readableKeyFromUrl(ctx: AppContext, userId: number, url: string): Promise<string> {
  const key = ownedKeyFromUrl(ctx, userId, url);
  const db = ctx.database.db;
  const upload = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.key, key), eq(uploads.userId, userId), eq(uploads.status, 'confirmed')))
    .limit(1);
  if (upload.length) return key;
  const result = await db
    .select({ id: images.id })
    .from(images)
    .where(and(eq(images.userId, userId), eq(images.resultKey, key), eq(images.status, 'completed')))
    .limit(1);
  if (result.length) return key;
  throw new AppError('NOT_FOUND');
}

/**
 * A short-lived URL (300 s) that downloads one of the caller's readable images as an attachment
 * (001 §7). @throws AppError as `readableKeyFromUrl`, NOT_FOUND when the object is gone.
 */
export async function presignDownload(ctx: AppContext, userId: number, url: string): Promise<{ success: true; downloadUrl: string; filename: string }> {
  const key = await readableKeyFromUrl(ctx, userId, url);
  if (!(await ctx.storage.exists(key))) throw new AppError('NOT_FOUND');
  const filename = downloadName(key);
  return { success: true, downloadUrl: await viewUrl(ctx, key, { ttlSeconds: 300, downloadFilename: filename }), filename };
}

/**
 * The bytes of one of the caller's readable images, for the download proxy fallback
 * (GET /api/image/download). `contentType` is the type of the stored bytes by their magic number
 * (`image/jpeg` or `image/png`; `application/octet-stream` should anything else ever be there), never
 * a guess from the key's extension. @throws AppError as `readableKeyFromUrl`, NOT_FOUND when gone.
 */
export async function downloadBytes(ctx: AppContext, userId: number, url: string): Promise<{ bytes: Buffer; filename: string; contentType: string }> {
  const key = await readableKeyFromUrl(ctx, userId, url);
  const bytes = await ctx.storage.get(key);
  return { bytes, filename: downloadName(key), contentType: sniffImageType(bytes) ?? 'application/octet-stream' };
}
