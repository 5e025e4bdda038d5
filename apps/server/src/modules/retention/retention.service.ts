import { and, eq, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { AppServices } from '../../context';
import { aiMessages, jobs, uploads } from '../../db/schema';

/** Uploaded content and results are kept this long after processing (002 §9, privacy policy). */
export const RETENTION_DAYS = 30;

export interface RetentionResult {
  /** Result files deleted (their rows marked expired). */
  results: number;
  /** Uploaded originals deleted (their uploads marked expired). */
  originals: number;
}

/**
 * Deletes what the privacy policy promises to delete (issue 13): job results RETENTION_DAYS after
 * their job ended, and uploaded originals RETENTION_DAYS after their last job ended (or after upload,
 * when no job used them) — chat images included (uploads of kind `chat-image`: the message keeps its
 * text and shows no picture, issue 21 point 11). Storage first, then the row (`expired_at` / status `expired`), batch by batch:
 * a run stopped half-way leaves rows that the next run finishes (deleting a missing file is a no-op),
 * and a second run over done rows changes nothing. History rows stay, shown as expired.
 * @param opts.now the clock (tests); @param opts.batch rows per step
 */
export async function purgeExpiredContent(ctx: Pick<AppServices, 'database' | 'storage' | 'log'>, opts: { now?: Date; batch?: number } = {}): Promise<RetentionResult> {
  const db = ctx.database.db;
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - RETENTION_DAYS * 86_400_000);
  const batch = opts.batch ?? 200;
  const out: RetentionResult = { results: 0, originals: 0 };

  // 1. Results of jobs that ended before the cutoff.
  for (;;) {
    const rows = await db
      .select({ id: jobs.id, resultKey: jobs.resultKey, resultKeys: jobs.resultKeys })
      .from(jobs)
      .where(and(isNull(jobs.expiredAt), ne(jobs.status, 'processing'), lt(sql`coalesce(${jobs.completedAt}, ${jobs.updatedAt})`, cutoff)))
      .limit(batch);
    if (!rows.length) break;
    for (const r of rows) {
      // Every result of a multi-image job (decision 024), or its one result.
      const keys = new Set([...(r.resultKey ? [r.resultKey] : []), ...(Array.isArray(r.resultKeys) ? r.resultKeys : [])]);
      for (const key of keys) await ctx.storage.delete(key).catch((err: unknown) => ctx.log.warn({ err, id: r.id }, 'retention: result delete failed'));
    }
    await db.update(jobs).set({ resultKey: null, resultKeys: null, expiredAt: now }).where(inArray(jobs.id, rows.map((r) => r.id)));
    out.results += rows.length;
    if (rows.length < batch) break;
  }

  // 2. Originals uploaded before the cutoff that no job used after it (and none is still running).
  for (;;) {
    const rows = await db
      .select({ id: uploads.id, key: uploads.key })
      .from(uploads)
      .where(
        and(
          eq(uploads.status, 'confirmed'),
          lt(uploads.createdAt, cutoff),
          sql`not exists (select 1 from ${jobs} i where i.original_key = ${uploads.key}
                and (i.status = 'processing' or coalesce(i.completed_at, i.updated_at) >= ${cutoff}))`,
        ),
      )
      .limit(batch);
    if (!rows.length) break;
    for (const r of rows) await ctx.storage.delete(r.key).catch((err: unknown) => ctx.log.warn({ err, id: r.id }, 'retention: original delete failed'));
    const keys = rows.map((r) => r.key);
    await db.update(jobs).set({ originalKey: null, expiredAt: sql`coalesce(${jobs.expiredAt}, ${now})` }).where(inArray(jobs.originalKey, keys));
    // A chat image is an upload too (kind `chat-image`): its message keeps the text and loses the picture.
    await db.update(aiMessages).set({ imageKey: null }).where(inArray(aiMessages.imageKey, keys));
    await db.update(uploads).set({ status: 'expired' }).where(inArray(uploads.id, rows.map((r) => r.id)));
    out.originals += rows.length;
    if (rows.length < batch) break;
  }
  if (out.results || out.originals) ctx.log.info(out, 'retention: expired content deleted');
  return out;
}


