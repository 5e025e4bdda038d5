import { and, desc, eq } from 'drizzle-orm';
import type { HistoryImage, HistoryResponse, HistorySource, JobStatusResponse } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { images, type ImageRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { ownedKeyFromUrl, viewUrl } from './image-urls';

/** A history row as the page sees it (001 §3), with signed, expiring URLs. */
export async function presentHistoryImage(ctx: AppContext, row: ImageRow): Promise<HistoryImage> {
  const imageUrl = row.resultKey ? await viewUrl(ctx, row.resultKey) : null;
  const originalUrl = await viewUrl(ctx, row.originalKey);
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
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
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
    originalImageUrl: await viewUrl(ctx, row.originalKey),
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
  q: { source?: HistorySource; limit: number; offset: number },
): Promise<HistoryResponse> {
  if (requestedUserId !== userId) throw new AppError('FORBIDDEN');
  const where = q.source ? and(eq(images.userId, userId), eq(images.source, q.source)) : eq(images.userId, userId);
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

/** A short-lived URL that downloads one of the caller's images as an attachment (001 §7). */
export async function presignDownload(ctx: AppContext, userId: number, url: string): Promise<{ success: true; downloadUrl: string; filename: string }> {
  const key = ownedKeyFromUrl(ctx, userId, url);
  if (!(await ctx.storage.exists(key))) throw new AppError('NOT_FOUND');
  const filename = downloadName(key);
  return { success: true, downloadUrl: await viewUrl(ctx, key, { ttlSeconds: 300, downloadFilename: filename }), filename };
}

/** The bytes of one of the caller's images, for the download proxy fallback (GET /api/image/download). */
export async function downloadBytes(ctx: AppContext, userId: number, url: string): Promise<{ bytes: Buffer; filename: string; contentType: string }> {
  const key = ownedKeyFromUrl(ctx, userId, url);
  if (!(await ctx.storage.exists(key))) throw new AppError('NOT_FOUND');
  const filename = downloadName(key);
  return { bytes: await ctx.storage.get(key), filename, contentType: key.endsWith('.png') ? 'image/png' : 'image/jpeg' };
}
