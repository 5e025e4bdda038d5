import { assertNotInMaintenance } from '../settings';
import { createHash, randomUUID } from 'node:crypto';
import { and, asc, count, eq, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { PresignUploadRequest, PresignUploadResponse, UploadResponse } from '@dewy/contracts';
import { IMAGE_EDIT, UPLOAD_LIMITS } from '@dewy/contracts';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { uploads, users, type UploadRow } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { ownedKeyFromUrl, userPrefix, viewUrl } from './image-urls';
import { prepareOriginal, type PreparedOriginal } from './image-reencode';

/**
 * Seconds after presign-upload during which a presigned upload may still be received and confirmed:
 * the URL's life plus a grace. Past it, an unconfirmed upload is refused (UPLOAD_EXPIRED) and purged.
 */
export const PENDING_UPLOAD_LIFETIME_SECONDS = UPLOAD_LIMITS.presignTtlSeconds + UPLOAD_LIMITS.pendingGraceSeconds;

/** Statuses of presigned uploads that were never confirmed: they count toward the pending cap. */
const UNCONFIRMED = ['pending', 'rejected'] as const;

/**
 * The per-user quota of stored uploads (issue 21 point 7, decision 032), checked in the caller's
 * transaction before anything is stored: locks the user row (`SELECT … FOR UPDATE`, so parallel uploads
 * of one user pass one at a time), then counts the user's live uploads — every row not yet expired by the
 * retention or purged (pending, confirmed, refused), of every kind — and their bytes (announced for a
 * pending row, stored for a confirmed one). `excludeId`: the row being confirmed, counted with `addBytes`
 * instead of its announced size.
 * @param addBytes the bytes the new (or confirmed) upload will hold
 * @throws AppError UPLOAD_STORAGE_FULL (details: storedUploads, storedBytes, maxStoredUploads, maxStoredBytes)
 *   when one more upload, or `addBytes` more, would pass ctx.config.uploadQuota (UPLOAD_QUOTA_MAX_FILES / _BYTES).
 */
export async function assertStoredUploadQuota(tx: DbOrTx, ctx: Pick<AppContext, 'config'>, userId: number, addBytes: number, excludeId?: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  const [held] = await tx
    .select({ bytes: sql<string>`coalesce(sum(${uploads.bytes}), 0)`, uploads: count() })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), ne(uploads.status, 'expired'), excludeId === undefined ? undefined : ne(uploads.id, excludeId)));
  const storedBytes = Number(held?.bytes ?? 0);
  const storedUploads = held?.uploads ?? 0;
  const { maxFiles, maxBytes } = ctx.config.uploadQuota;
  if (storedUploads + 1 > maxFiles || storedBytes + addBytes > maxBytes) {
    throw new AppError('UPLOAD_STORAGE_FULL', { details: { storedUploads, storedBytes, maxStoredUploads: maxFiles, maxStoredBytes: maxBytes } });
  }
}

/** True (in SQL, on the database's clock) for a row created longer ago than the pending lifetime. */
const pastPendingLifetime = sql<boolean>`${uploads.createdAt} <= now() - make_interval(secs => ${PENDING_UPLOAD_LIFETIME_SECONDS})`;

/** Where the re-encoded original is stored and served from (written by the server only). */
function originalKey(userId: number, id: string, ext: string): string {
  return `${userPrefix(userId)}originals/${id}.${ext}`;
}

/** Where the browser PUTs a presigned upload; never readable, deleted at confirm and by the purge. */
function incomingKey(userId: number, id: string, ext: string): string {
  return `${userPrefix(userId)}incoming/${id}.${ext}`;
}

function sha256Base64(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64');
}

async function uploadResponse(ctx: AppContext, key: string, width: number, height: number): Promise<UploadResponse> {
  return { success: true, imageUrl: await viewUrl(ctx, key), width, height };
}

/**
 * Stores an uploaded photo sent through our server (POST /api/image/upload-s3, 001 §7). The bytes are
 * checked and re-encoded by `prepareOriginal` (type by magic bytes, size cap, pixel cap before
 * decoding, one full decode; EXIF orientation applied; metadata and trailing bytes gone); only the
 * re-encoded picture is stored, and nothing is when any check fails. The stored-upload quota is checked
 * before the object is written ({@link assertStoredUploadQuota}): the row is recorded `pending` in the
 * quota's transaction (so parallel uploads cannot overshoot it), then the object is written and the row
 * flipped to `confirmed`. A crash in between leaves a pending row that the pending-upload purge deletes
 * with its object.
 * @param kind upload kind of contracts' UPLOAD_KINDS (default `upscale-original`)
 * @returns the signed view URL and the upright picture's width and height (px)
 * @throws AppError UNSUPPORTED_IMAGE_TYPE | IMAGE_TOO_LARGE | IMAGE_TOO_MANY_PIXELS | IMAGE_CORRUPT | NSFW_CONTENT_DETECTED | UPLOAD_STORAGE_FULL
 */
export async function storeDirectUpload(ctx: AppContext, userId: number, bytes: Buffer, kind = 'upscale-original'): Promise<UploadResponse> {
  await assertNotInMaintenance(ctx);
  const prepared = await prepareOriginal(bytes);
  await screenUpload(ctx, userId, prepared.bytes);
  const key = originalKey(userId, randomUUID(), prepared.ext);
  const db = ctx.database.db;
  const row = await inTransaction(db, async (tx) => {
    await assertStoredUploadQuota(tx, ctx, userId, prepared.bytes.length);
    const [inserted] = await tx
      .insert(uploads)
      .values({ userId, key, kind, status: 'pending', mime: prepared.mime, bytes: prepared.bytes.length, sha256: prepared.sha256, width: prepared.width, height: prepared.height })
      .returning({ id: uploads.id });
    return inserted!;
  });
  try {
    await ctx.storage.put(key, prepared.bytes, prepared.mime);
    const done = await db.update(uploads).set({ status: 'confirmed' }).where(and(eq(uploads.id, row.id), eq(uploads.status, 'pending'))).returning({ id: uploads.id });
    if (!done.length) throw new AppError('INTERNAL', { message: 'direct upload row purged before it was confirmed' });
  } catch (err) {
    await ctx.storage.delete(key).catch(() => {});
    await db.delete(uploads).where(and(eq(uploads.id, row.id), eq(uploads.status, 'pending'))).catch(() => {});
    throw err;
  }
  return uploadResponse(ctx, key, prepared.width, prepared.height);
}

/**
 * Removes an upload that {@link storeDirectUpload} stored for a request that then did not start a job
 * (refused, or answered by an earlier job under the same Idempotency-Key): its row and its object, so
 * no file is left behind. Best effort: a failure is logged, never thrown over the request's own answer.
 * @param imageUrl the `imageUrl` storeDirectUpload returned
 */
export async function discardDirectUpload(ctx: AppContext, userId: number, imageUrl: string): Promise<void> {
  try {
    const key = ownedKeyFromUrl(ctx, userId, imageUrl);
    await ctx.database.db.delete(uploads).where(and(eq(uploads.userId, userId), eq(uploads.key, key)));
    await ctx.storage.delete(key);
  } catch (err) {
    ctx.log.warn({ err, userId }, 'could not discard an unused upload');
  }
}

/**
 * Refuses an image the moderator flags (issue 13, 001 §8): 400 NSFW_CONTENT_DETECTED before anything
 * is stored or charged; the scores are logged, never the image. A moderator failure refuses the upload
 * too (fail closed) with a retryable error rather than storing unscreened content.
 * @throws AppError NSFW_CONTENT_DETECTED | INTERNAL
 */
async function screenUpload(ctx: AppContext, userId: number, image: Buffer): Promise<void> {
  let verdict: Awaited<ReturnType<AppContext['moderator']['screen']>>;
  try {
    verdict = await ctx.moderator.screen(image);
  } catch (err) {
    ctx.log.error({ err, userId }, 'upload screening failed');
    throw new AppError('INTERNAL', { message: 'upload screening failed', cause: err });
  }
  if (verdict.flagged) {
    ctx.log.warn({ userId, scores: verdict.scores }, 'upload refused by the content screen');
    throw new AppError('NSFW_CONTENT_DETECTED');
  }
}

/**
 * Starts a presigned upload (001 §3): records a pending upload and returns a URL the browser PUTs the
 * bytes to with `requiredHeaders` (Content-Type and the SHA-256 checksum, which the store verifies).
 * The URL targets an incoming key (`u/<id>/incoming/…`) that is never served; `key` in the answer is
 * that incoming key, the one confirm-upload takes.
 *
 * Per-user cap (docs/decisions/009): the caller's unconfirmed presigned uploads (pending, or refused
 * and not yet purged) may hold at most UPLOAD_LIMITS.maxPendingBytesPerUser announced bytes and
 * maxPendingUploadsPerUser rows. The check and the insert run in one transaction holding the user
 * row's lock (`SELECT … FOR UPDATE`), so parallel requests cannot pass it together. The stored-upload
 * quota ({@link assertStoredUploadQuota}, announced bytes) is checked in the same transaction.
 * @throws AppError IMAGE_EDIT_FILE_TOO_LARGE for a `seedream-ref` over 9 MB (002 §5); UPLOAD_QUOTA_EXCEEDED (HTTP 429) when this upload would go over either cap;
 *   UPLOAD_STORAGE_FULL (HTTP 403) when it would go over the stored-upload quota;
 *   nothing is recorded then.
 */
export async function presignUpload(ctx: AppContext, userId: number, req: PresignUploadRequest): Promise<PresignUploadResponse> {
  await assertNotInMaintenance(ctx);
  // Image-edit references: 9 MB at most (002 §5; the vendor's own limit is 10 MB).
  if (req.kind === 'seedream-ref' && req.contentLength > IMAGE_EDIT.maxBytes) throw new AppError('IMAGE_EDIT_FILE_TOO_LARGE', { details: { maxBytes: IMAGE_EDIT.maxBytes } });
  const id = randomUUID();
  const ext = req.mime === 'image/png' ? 'png' : 'jpg';
  const incoming = incomingKey(userId, id, ext);
  const signed = await ctx.storage.presignPut({
    key: incoming,
    contentType: req.mime,
    contentLength: req.contentLength,
    checksumSha256: req.checksumSha256,
    expiresInSeconds: UPLOAD_LIMITS.presignTtlSeconds,
  });
  await inTransaction(ctx.database.db, async (tx) => {
    await assertStoredUploadQuota(tx, ctx, userId, req.contentLength); // locks the user row
    const [held] = await tx
      .select({ bytes: sql<string>`coalesce(sum(${uploads.bytes}), 0)`, uploads: count() })
      .from(uploads)
      .where(and(eq(uploads.userId, userId), inArray(uploads.status, UNCONFIRMED)));
    const pendingBytes = Number(held?.bytes ?? 0);
    const pendingUploads = held?.uploads ?? 0;
    if (pendingBytes + req.contentLength > UPLOAD_LIMITS.maxPendingBytesPerUser || pendingUploads >= UPLOAD_LIMITS.maxPendingUploadsPerUser) {
      throw new AppError('UPLOAD_QUOTA_EXCEEDED', {
        details: {
          pendingBytes,
          pendingUploads,
          maxPendingBytes: UPLOAD_LIMITS.maxPendingBytesPerUser,
          maxPendingUploads: UPLOAD_LIMITS.maxPendingUploadsPerUser,
        },
      });
    }
    await tx.insert(uploads).values({
      userId,
      key: originalKey(userId, id, ext),
      incomingKey: incoming,
      kind: req.kind,
      status: 'pending',
      mime: req.mime,
      bytes: req.contentLength,
      sha256: req.checksumSha256,
    });
  });
  return { success: true, url: signed.url, key: incoming, requiredHeaders: signed.requiredHeaders };
}

/** Marks a pending upload refused and deletes what the browser sent; the row is purged after expiry. */
async function rejectUpload(ctx: AppContext, row: UploadRow): Promise<void> {
  const flipped = await ctx.database.db
    .update(uploads)
    .set({ status: 'rejected' })
    .where(and(eq(uploads.id, row.id), eq(uploads.status, 'pending')))
    .returning({ id: uploads.id });
  if (flipped.length && row.incomingKey) await ctx.storage.delete(row.incomingKey).catch(() => {});
}

/**
 * Confirms a presigned upload (001 §3, docs/decisions/009). `key` is the incoming key presign-upload
 * answered. The object must exist, belong to the caller, match the announced checksum and pass
 * `prepareOriginal` like a direct upload; the re-encoded picture is then stored under the upload's
 * own key (`u/<id>/originals/<uuid>.<jpg|png>`, extension from the bytes), its row becomes
 * `confirmed` with the stored bytes, SHA-256 and upright size, and what the browser sent is deleted.
 * The completion is conditional on the row still being pending and inside its lifetime, so it can
 * never race the purge. Confirming twice (or in parallel) answers the same result.
 *
 * A refused file is deleted at once and its row kept as `rejected` until the purge, so that a
 * replayed PUT of the same URL cannot leave an object nobody deletes; the row is never readable.
 * @returns the signed view URL and the upright picture's width and height (px)
 * The stored-upload quota is checked again with the re-encoded size before the object is written.
 * @throws AppError NOT_FOUND (unknown key, not the caller's, refused before, or nothing received),
 *   UPLOAD_EXPIRED (past the URL's life and grace), CHECKSUM_MISMATCH, UPLOAD_STORAGE_FULL, and the inspection codes.
 */
export async function confirmUpload(ctx: AppContext, userId: number, key: string): Promise<UploadResponse> {
  const db = ctx.database.db;
  const found = (
    await db
      .select({ row: uploads, expired: pastPendingLifetime })
      .from(uploads)
      .where(and(eq(uploads.incomingKey, key), eq(uploads.userId, userId)))
  )[0];
  if (!found || found.row.status === 'rejected') throw new AppError('NOT_FOUND');
  const row = found.row;
  if (row.status === 'confirmed') return uploadResponse(ctx, row.key, row.width!, row.height!);
  if (found.expired) throw new AppError('UPLOAD_EXPIRED');
  if (!(await ctx.storage.exists(key))) throw new AppError('NOT_FOUND', { message: 'upload not received' });
  const received = await ctx.storage.get(key);

  let prepared: PreparedOriginal;
  try {
    if (row.sha256 && sha256Base64(received) !== row.sha256) throw new AppError('CHECKSUM_MISMATCH');
    prepared = await prepareOriginal(received);
    await screenUpload(ctx, userId, prepared.bytes);
  } catch (err) {
    if (err instanceof AppError) await rejectUpload(ctx, row);
    throw err;
  }

  // The re-encoded size may differ from the announced one: the quota counts what will be stored.
  try {
    await inTransaction(db, async (tx) => {
      await assertStoredUploadQuota(tx, ctx, userId, prepared.bytes.length, row.id);
      await tx.update(uploads).set({ bytes: prepared.bytes.length }).where(and(eq(uploads.id, row.id), eq(uploads.status, 'pending')));
    });
  } catch (err) {
    if (err instanceof AppError) await rejectUpload(ctx, row);
    throw err;
  }

  const storedKey = row.key.replace(/\.(jpg|png)$/, `.${prepared.ext}`);
  // Name the object in the row before writing it, so that a crash between the two leaves nothing the purge cannot find.
  if (storedKey !== row.key) await db.update(uploads).set({ key: storedKey }).where(and(eq(uploads.id, row.id), eq(uploads.status, 'pending')));
  await ctx.storage.put(storedKey, prepared.bytes, prepared.mime);
  const done = await db
    .update(uploads)
    .set({ status: 'confirmed', key: storedKey, mime: prepared.mime, bytes: prepared.bytes.length, sha256: prepared.sha256, width: prepared.width, height: prepared.height })
    .where(and(eq(uploads.id, row.id), eq(uploads.status, 'pending'), sql`not (${pastPendingLifetime})`))
    .returning({ id: uploads.id });
  if (done.length) {
    await ctx.storage.delete(key).catch(() => {});
    return uploadResponse(ctx, storedKey, prepared.width, prepared.height);
  }
  // Lost a race: a parallel confirm finished first (same bytes, same result), or the row expired.
  const now = (await db.select().from(uploads).where(eq(uploads.id, row.id)))[0];
  if (now?.status === 'confirmed' && now.key === storedKey) return uploadResponse(ctx, now.key, now.width!, now.height!);
  await ctx.storage.delete(storedKey).catch(() => {});
  throw new AppError(now ? 'UPLOAD_EXPIRED' : 'NOT_FOUND');
}

/** The confirmed upload behind a key, owned by the user. @throws AppError NOT_FOUND */
export async function getConfirmedUpload(ctx: Pick<AppContext, 'database'>, userId: number, key: string) {
  const row = (await ctx.database.db.select().from(uploads).where(and(eq(uploads.key, key), eq(uploads.userId, userId), eq(uploads.status, 'confirmed'))))[0];
  if (!row || row.width == null || row.height == null) throw new AppError('NOT_FOUND', { message: 'image not found' });
  return { ...row, width: row.width, height: row.height };
}

export interface PurgeResult {
  /** Unconfirmed uploads deleted with their objects. */
  purged: number;
  /** Confirmed uploads whose incoming object (a replayed PUT's) was deleted and forgotten. */
  cleared: number;
}

/**
 * Housekeeping (api.ts, every minute; docs/decisions/009): presigned uploads older than
 * PENDING_UPLOAD_LIFETIME_SECONDS (URL life + grace, on the database's clock), oldest first, at most
 * `limit` per call (default 500):
 * - pending or rejected: the incoming object and the object at `key` are deleted (idempotently — a
 *   missing object is fine), then the row, if still unconfirmed;
 * - confirmed: the incoming object is deleted (a PUT replayed after confirm may have put it back) and
 *   `incomingKey` cleared, so the row is not visited again.
 * A row whose object cannot be deleted (storage down) is kept for the next round; the others go on.
 * @throws Error after the round when some rows failed (message with the count and the first cause).
 */
export async function purgeStalePendingUploads(ctx: AppContext, opts: { limit?: number } = {}): Promise<PurgeResult> {
  const db = ctx.database.db;
  const rows = await db
    .select({ id: uploads.id, key: uploads.key, incomingKey: uploads.incomingKey, status: uploads.status })
    .from(uploads)
    .where(and(pastPendingLifetime, or(ne(uploads.status, 'confirmed'), isNotNull(uploads.incomingKey))))
    .orderBy(asc(uploads.createdAt))
    .limit(opts.limit ?? 500);
  const result: PurgeResult = { purged: 0, cleared: 0 };
  const failures: unknown[] = [];
  for (const r of rows) {
    try {
      if (r.incomingKey) await ctx.storage.delete(r.incomingKey);
      if (r.status === 'confirmed') {
        await db.update(uploads).set({ incomingKey: null }).where(eq(uploads.id, r.id));
        result.cleared++;
      } else {
        await ctx.storage.delete(r.key);
        const gone = await db.delete(uploads).where(and(eq(uploads.id, r.id), inArray(uploads.status, UNCONFIRMED))).returning({ id: uploads.id });
        result.purged += gone.length;
      }
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length) {
    const first = failures[0];
    throw new Error(`upload purge: ${failures.length} of ${rows.length} rows failed (${first instanceof Error ? first.message : String(first)})`, { cause: first });
  }
  return result;
}
