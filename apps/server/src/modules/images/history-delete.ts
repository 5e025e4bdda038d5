import { and, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import type { HistoryDeleteResponse } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { jobs, uploads } from '../../db/schema';
import { AppError } from '../../lib/app-error';

/**
 * Deletes history items of the caller for good (issue 28, point 12; decision 046): every result file of
 * each item, and each item's original upload when no other item of the caller still uses it, are removed
 * from storage; then the rows are marked deleted (`jobs.deleted_at`, result and original keys cleared),
 * which takes them out of every list, status answer and download. Nothing is refunded: the ledger keeps
 * the spend.
 *
 * All or nothing on the request: an id that is not one of the caller's items (or is already deleted)
 * answers NOT_FOUND, an item still processing JOB_IN_PROGRESS, and nothing is deleted. Storage first,
 * then the rows (as retention does): a call stopped half-way leaves items listed whose files are gone
 * (shown as placeholders), which the next delete finishes; deleting a missing file is a no-op, so two
 * deletes of the same item at once both succeed and the item is deleted once. A job started on the same
 * upload between the check and the deletion finds its original gone, fails and is refunded by the kernel.
 * @param ids `HistoryImage.id`s (job row ids), 1..HISTORY_DELETE_MAX, repeats ignored
 * @returns the ids deleted, in the order asked
 * @throws AppError NOT_FOUND, JOB_IN_PROGRESS
 */
export async function deleteHistoryItems(ctx: AppContext, userId: number, ids: number[], now = new Date()): Promise<HistoryDeleteResponse> {
  const wanted = [...new Set(ids)];
  const db = ctx.database.db;
  const rows = await db
    .select({ id: jobs.id, status: jobs.status, originalKey: jobs.originalKey, resultKey: jobs.resultKey, resultKeys: jobs.resultKeys })
    .from(jobs)
    .where(and(eq(jobs.userId, userId), inArray(jobs.id, wanted), isNull(jobs.deletedAt)));
  if (rows.length !== wanted.length) throw new AppError('NOT_FOUND');
  if (rows.some((r) => r.status === 'processing')) throw new AppError('JOB_IN_PROGRESS');

  const results = new Set(rows.flatMap((r) => [...(r.resultKey ? [r.resultKey] : []), ...(Array.isArray(r.resultKeys) ? r.resultKeys : [])]));
  const originals = [...new Set(rows.map((r) => r.originalKey).filter((k): k is string => k !== null))];
  // An original stays while another item of the caller that is not being deleted reads it.
  const kept = originals.length
    ? await db
        .select({ key: jobs.originalKey })
        .from(jobs)
        .where(and(eq(jobs.userId, userId), inArray(jobs.originalKey, originals), notInArray(jobs.id, wanted), isNull(jobs.deletedAt)))
    : [];
  const keptKeys = new Set(kept.map((k) => k.key));
  const orphaned = originals.filter((k) => !keptKeys.has(k));

  for (const key of [...results, ...orphaned]) {
    await ctx.storage.delete(key).catch((err: unknown) => {
      ctx.log.error({ err, userId }, 'history delete: a file could not be removed');
      throw new AppError('INTERNAL', { message: 'storage delete failed', cause: err });
    });
  }
  await db.transaction(async (tx) => {
    if (orphaned.length) await tx.update(uploads).set({ status: 'expired' }).where(and(eq(uploads.userId, userId), inArray(uploads.key, orphaned)));
    await tx
      .update(jobs)
      .set({ deletedAt: now, resultKey: null, resultKeys: null, originalKey: null, updatedAt: now })
      .where(and(eq(jobs.userId, userId), inArray(jobs.id, wanted), isNull(jobs.deletedAt)));
  });
  ctx.log.info({ userId, items: wanted.length, files: results.size + orphaned.length }, 'history items deleted');
  // Every id was found above (or the call refused): all of them are deleted.
  return { success: true, deleted: wanted };
}
