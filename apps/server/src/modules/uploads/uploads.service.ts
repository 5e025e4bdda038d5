import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { PresignUploadRequest, PresignUploadResponse, UploadResponse } from '@dewy/contracts';
import { UPLOAD_LIMITS } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { uploads } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { userPrefix, viewUrl } from '../images/image-urls';
import { inspectImage } from './image-inspect';

function originalKey(userId: number, ext: string): string {
  return `${userPrefix(userId)}originals/${randomUUID()}.${ext}`;
}

/**
 * Stores an uploaded photo sent through our server (POST /api/image/upload-s3, 001 §7). The bytes are
 * inspected first (type by magic bytes, size cap, pixel cap before decoding, full decode); nothing is
 * stored when any check fails.
 * @throws AppError UNSUPPORTED_IMAGE_TYPE | IMAGE_TOO_LARGE | IMAGE_TOO_MANY_PIXELS | IMAGE_CORRUPT
 */
export async function storeDirectUpload(ctx: AppContext, userId: number, bytes: Buffer, kind = 'upscale-original'): Promise<UploadResponse> {
  const info = await inspectImage(bytes);
  const key = originalKey(userId, info.ext);
  await ctx.storage.put(key, bytes, info.mime);
  try {
    await ctx.database.db.insert(uploads).values({
      userId,
      key,
      kind,
      status: 'confirmed',
      mime: info.mime,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('base64'),
      width: info.width,
      height: info.height,
    });
  } catch (err) {
    await ctx.storage.delete(key).catch(() => {});
    throw err;
  }
  return { success: true, imageUrl: await viewUrl(ctx, key), width: info.width, height: info.height };
}

/**
 * Starts a presigned upload (001 §3): records a pending upload and returns a URL the browser PUTs the
 * bytes to with `requiredHeaders` (Content-Type and the SHA-256 checksum, which the store verifies).
 */
export async function presignUpload(ctx: AppContext, userId: number, req: PresignUploadRequest): Promise<PresignUploadResponse> {
  const key = originalKey(userId, req.mime === 'image/png' ? 'png' : 'jpg');
  const signed = await ctx.storage.presignPut({
    key,
    contentType: req.mime,
    contentLength: req.contentLength,
    checksumSha256: req.checksumSha256,
    expiresInSeconds: UPLOAD_LIMITS.presignTtlSeconds,
  });
  await ctx.database.db.insert(uploads).values({
    userId,
    key,
    kind: req.kind,
    status: 'pending',
    mime: req.mime,
    bytes: req.contentLength,
    sha256: req.checksumSha256,
  });
  return { success: true, url: signed.url, key, requiredHeaders: signed.requiredHeaders };
}

/**
 * Confirms a presigned upload: the object must exist, belong to the caller, match the announced
 * checksum and pass the same inspection as a direct upload. A file that fails is deleted with its
 * record, so nothing half-written stays behind. Confirming twice answers the same result.
 * @throws AppError NOT_FOUND (unknown key or not the caller's), CHECKSUM_MISMATCH, and the inspection codes.
 */
export async function confirmUpload(ctx: AppContext, userId: number, key: string): Promise<UploadResponse> {
  const db = ctx.database.db;
  const row = (await db.select().from(uploads).where(and(eq(uploads.key, key), eq(uploads.userId, userId))))[0];
  if (!row) throw new AppError('NOT_FOUND');
  if (row.status === 'confirmed') return { success: true, imageUrl: await viewUrl(ctx, key), width: row.width!, height: row.height! };
  if (!(await ctx.storage.exists(key))) throw new AppError('NOT_FOUND', { message: 'upload not received' });
  const bytes = await ctx.storage.get(key);
  try {
    if (row.sha256 && createHash('sha256').update(bytes).digest('base64') !== row.sha256) throw new AppError('CHECKSUM_MISMATCH');
    const info = await inspectImage(bytes);
    await db.update(uploads).set({ status: 'confirmed', mime: info.mime, bytes: bytes.length, width: info.width, height: info.height }).where(eq(uploads.id, row.id));
    return { success: true, imageUrl: await viewUrl(ctx, key), width: info.width, height: info.height };
  } catch (err) {
    await ctx.storage.delete(key).catch(() => {});
    await db.delete(uploads).where(eq(uploads.id, row.id));
    throw err;
  }
}

/** The confirmed upload behind a key, owned by the user. @throws AppError NOT_FOUND */
export async function getConfirmedUpload(ctx: AppContext, userId: number, key: string) {
  const row = (await ctx.database.db.select().from(uploads).where(and(eq(uploads.key, key), eq(uploads.userId, userId), eq(uploads.status, 'confirmed'))))[0];
  if (!row || row.width == null || row.height == null) throw new AppError('NOT_FOUND', { message: 'image not found' });
  return { ...row, width: row.width, height: row.height };
}
