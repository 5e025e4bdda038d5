import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { isErrorCode, type ErrorCode, type HistoryImage, type HistoryResponse, type HistorySource, type JobStatus, type JobStatusResponse, type UploadResponse } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { jobs, uploads, type JobRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { sniffImageType } from '../../lib/image-type';
import { storeDirectUpload, ownedKeyFromUrl, viewUrl } from '../uploads';
import { rowHistoryFields, rowIsPartial, toolJobsPage } from '../tool-jobs';

/**
 * The result keys of a row, first one first: all of a multi-image job's (`result_keys`), else its one
 * `result_key`; empty when there is none (processing, failed, expired).
 */
export function resultKeysOf(row: Pick<JobRow, 'resultKey' | 'resultKeys'>): string[] {
  if (!row.resultKey) return [];
  return Array.isArray(row.resultKeys) && row.resultKeys.length ? row.resultKeys : [row.resultKey];
}

/** Signed view URLs of every result of a row (see `resultKeysOf`). */
export async function resultUrlsOf(ctx: AppContext, row: Pick<JobRow, 'resultKey' | 'resultKeys'>): Promise<string[]> {
  return Promise.all(resultKeysOf(row).map((k) => viewUrl(ctx, k)));
}

/**
 * The `error` of `/api/image/status` for a failed row (001 §3): its `error_code` when that is one of our
 * error codes (e.g. GENERATION_SAFETY_BLOCKED), else JOB_FAILED (a kernel reason, an image-edit vendor
 * code, no code).
 */
export function statusErrorOf(row: Pick<JobRow, 'errorCode'>): ErrorCode | 'JOB_FAILED' {
  return isErrorCode(row.errorCode) ? row.errorCode : 'JOB_FAILED';
}

/**
 * A history row as the page sees it (001 §3), with signed, expiring URLs, whatever its tool; the
 * tool's own fields (its vendor task id) come from the tool's presenter (decision 035).
 */
export async function presentHistoryImage(ctx: AppContext, row: JobRow): Promise<HistoryImage> {
  const all = await Promise.all(resultKeysOf(row).map((k) => viewUrl(ctx, k)));
  const imageUrl = all[0] ?? null;
  const originalUrl = row.originalKey ? await viewUrl(ctx, row.originalKey) : null;
  const own = rowHistoryFields(ctx, row);
  return {
    id: row.id,
    image_url: imageUrl,
    original_image_url: originalUrl,
    thumbnail_url: imageUrl ?? originalUrl,
    all_image_urls: all,
    status: row.status,
    source: row.source,
    runpod_job_id: row.jobId,
    prompt: row.prompt,
    seed: row.seed,
    cost: row.cost,
    width: row.width,
    height: row.height,
    original_width: row.originalWidth,
    original_height: row.originalHeight,
    kling_task_id: own.kling_task_id,
    seedream_task_id: own.seedream_task_id,
    input: (row.input as Record<string, unknown> | null) ?? null,
    batch_id: row.batchId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    expired_at: row.expiredAt?.toISOString() ?? null,
  };
}

/**
 * Status of one of the caller's jobs (GET /api/image/status/{jobId}), whatever its tool; whether a
 * completed job is partial is the tool's to say (decision 035). Another user's job id answers
 * NOT_FOUND, the same as a job that does not exist.
 */
export async function jobStatus(ctx: AppContext, userId: number, jobId: string): Promise<JobStatusResponse> {
  const row = (await ctx.database.db.select().from(jobs).where(and(eq(jobs.jobId, jobId), eq(jobs.userId, userId), isNull(jobs.deletedAt))))[0];
  if (!row) throw new AppError('NOT_FOUND');
  const all = row.status === 'completed' ? await Promise.all(resultKeysOf(row).map((k) => viewUrl(ctx, k))) : [];
  return {
    status: row.status,
    imageUrl: all[0] ?? null,
    originalImageUrl: row.originalKey ? await viewUrl(ctx, row.originalKey) : null,
    images: all,
    partial: rowIsPartial(ctx, row),
    error: row.status === 'failed' ? statusErrorOf(row) : null,
  };
}

/**
 * The caller's history, newest first (GET /api/image/history/{userId}, 001 §7 and 002 §7). Asking for
 * another user's history is refused. With `grouped` (002 §7 `grouped=1&group_limit=&group_offset=`) a
 * page is `group_limit` generations from `group_offset`, completed ones only, each carrying all its
 * images in `all_image_urls` (one row is one generation, so groups and rows page alike: `nextOffset`
 * equals `nextGroupOffset`); `q` searches the prompt (case-insensitive substring).
 * @throws AppError FORBIDDEN when `requestedUserId` is not the caller.
 */
export async function listHistory(
  ctx: AppContext,
  userId: number,
  requestedUserId: number,
  q: { source?: HistorySource; status?: JobStatus; limit: number; offset: number; grouped?: string; group_limit?: number; group_offset?: number; q?: string },
): Promise<HistoryResponse> {
  if (requestedUserId !== userId) throw new AppError('FORBIDDEN');
  const grouped = q.grouped === '1' || q.grouped === 'true';
  const limit = grouped ? (q.group_limit ?? q.limit) : q.limit;
  const offset = grouped ? (q.group_offset ?? q.offset) : q.offset;
  const status = q.status ?? (grouped ? 'completed' : undefined);
  const { rows, hasMore, nextOffset: next } = await toolJobsPage(ctx, userId, { source: q.source, status, q: q.q, limit, offset });
  return {
    images: await Promise.all(rows.map((r) => presentHistoryImage(ctx, r))),
    pagination: grouped ? { hasMore, nextOffset: next, groupHasMore: hasMore, nextGroupOffset: next, grouped: true } : { hasMore, nextOffset: next },
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
 * completed jobs (`jobs.result_key`). Checked against the database, not only the `u/<id>/` prefix:
 * a pending or refused upload, an incoming object, or anything else under the prefix answers NOT_FOUND.
 * Every call that hands out or serves a user-named object (presign-download, the download proxy) goes
 * through here.
 * @param field the request field the URL came from (named in a VALIDATION_FAILED's details; default `url`)
 * @throws AppError VALIDATION_FAILED (no key in the URL, a malformed escape), FORBIDDEN (another user's prefix), NOT_FOUND.
 */
export async function readableKeyFromUrl(ctx: AppContext, userId: number, url: string, field = 'url'): Promise<string> {
  const key = ownedKeyFromUrl(ctx, userId, url, field);
  const db = ctx.database.db;
  const upload = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.key, key), eq(uploads.userId, userId), eq(uploads.status, 'confirmed')))
    .limit(1);
  if (upload.length) return key;
  const result = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.userId, userId),
        eq(jobs.status, 'completed'),
        isNull(jobs.deletedAt),
        or(eq(jobs.resultKey, key), sql`${jobs.resultKeys} @> ${JSON.stringify([key])}::jsonb`),
      ),
    )
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

/**
 * Send-to-upscale (002 §2, issue 16): copies one of the caller's completed results (any tool, e.g. a
 * generated image) into a NEW confirmed upload, so the retouch workspace can take it like a photo the
 * customer uploaded. Only an object `readableKeyFromUrl` grants is read — our own storage, owned by the
 * caller; no URL is ever fetched. The copy goes through the same upload pipeline (type, size and pixel
 * checks, re-encode, screening) as any upload (decision 024).
 * @returns the new upload's signed URL and size (px), as POST /api/image/upload-s3 answers
 * @throws AppError as `readableKeyFromUrl` (FORBIDDEN for another user's result, NOT_FOUND), and the upload pipeline's codes
 */
export async function resultToUpload(ctx: AppContext, userId: number, url: string): Promise<UploadResponse> {
  const key = await readableKeyFromUrl(ctx, userId, url);
  const bytes = await ctx.storage.get(key).catch(() => {
    throw new AppError('NOT_FOUND');
  });
  return storeDirectUpload(ctx, userId, bytes, 'result-copy');
}
