import { randomUUID } from 'node:crypto';
import { count, desc, eq } from 'drizzle-orm';
import { NOTICES, type NoticeDetailResponse, type NoticeListResponse, type NoticeSummary } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { noticeFiles, notices } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { prepareOriginal } from '../uploads';
import { NOTICE_FILE_PATH, isBlankHtml, sanitizeNoticeHtml } from './notice-html';

/**
 * The notice board (spec 002 §2–§9, issue 13). Reads are public; writes are the administrator's
 * (enforced by the routes' `access: 'admin'`). Content is sanitized at write and at read; files are
 * re-encoded images (no metadata), stored under `notices/` and served by id from our own route.
 */

type NoticeRow = typeof notices.$inferSelect;

const summary = (n: NoticeRow): NoticeSummary => ({ id: n.id, title: n.title, pinned: n.pinned, author_name: n.authorName, created_at: n.createdAt.toISOString() });

/** `pinned` as the page sends it (002 §5: "1" or empty when creating; a boolean when editing). */
export function pinnedOf(v: boolean | string | undefined): boolean {
  return v === true || v === '1' || v === 'true';
}

/** Title and content checked and cleaned. @throws AppError NOTICE_INCOMPLETE when either is empty. */
function cleanWrite(input: { title: string; content: string }): { title: string; content: string } {
  const title = input.title.trim();
  const content = sanitizeNoticeHtml(input.content);
  if (!title || isBlankHtml(content)) throw new AppError('NOTICE_INCOMPLETE');
  return { title, content };
}

/** One page (10) of notices, pinned first, newest first. */
export async function listNotices(ctx: Pick<AppContext, 'database'>, page: number): Promise<NoticeListResponse> {
  const db = ctx.database.db;
  const [total] = await db.select({ n: count() }).from(notices);
  const totalPages = Math.max(1, Math.ceil((total?.n ?? 0) / NOTICES.pageSize));
  const rows = await db
    .select()
    .from(notices)
    .orderBy(desc(notices.pinned), desc(notices.createdAt), desc(notices.id))
    .limit(NOTICES.pageSize)
    .offset((page - 1) * NOTICES.pageSize);
  return { success: true, items: rows.map(summary), page, totalPages };
}

/** A notice with its attachments. @throws AppError NOT_FOUND */
export async function getNotice(ctx: Pick<AppContext, 'database'>, id: number): Promise<NoticeDetailResponse> {
  const db = ctx.database.db;
  const n = (await db.select().from(notices).where(eq(notices.id, id)))[0];
  if (!n) throw new AppError('NOT_FOUND');
  const files = await db.select().from(noticeFiles).where(eq(noticeFiles.noticeId, id)).orderBy(noticeFiles.id);
  return {
    success: true,
    notice: { ...summary(n), content: sanitizeNoticeHtml(n.content), updated_at: n.updatedAt.toISOString() },
    files: files.filter((f) => f.kind === 'attachment').map((f) => ({ id: f.id, file_name: f.fileName, file_url: `${NOTICE_FILE_PATH}${f.id}` })),
  };
}

/** An uploaded image for a notice, re-encoded and stored; the row is written by the caller. */
async function storeImage(ctx: AppContext, bytes: Buffer): Promise<{ key: string; mime: string; bytes: number }> {
  const prepared = await prepareOriginal(bytes);
  const key = `notices/${randomUUID()}.${prepared.ext}`;
  await ctx.storage.put(key, prepared.bytes, prepared.mime);
  return { key, mime: prepared.mime, bytes: prepared.bytes.length };
}

/** A file name safe to show and to send in Content-Disposition: no paths, no control characters, ≤ 120 chars. */
function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? 'image';
  const cleaned = base.replace(/[\p{Cc}\p{Cf}"<>]/gu, '').trim().slice(0, 120);
  return cleaned || 'image';
}

/**
 * Creates a notice with up to 5 image attachments (002 §5: images only; duplicates by name and size
 * dropped). Files are stored first; if anything fails afterwards they are deleted again, so nothing is
 * left behind. @throws AppError NOTICE_INCOMPLETE, VALIDATION_FAILED (more than 5 files), and the
 * upload pipeline's image errors.
 */
export async function createNotice(
  ctx: AppContext,
  author: { id: number; nickname: string },
  input: { title: string; content: string; pinned?: boolean | string },
  files: { fileName: string; bytes: Buffer }[],
): Promise<{ success: true; id: number }> {
  const clean = cleanWrite(input);
  const unique = files.filter((f, i) => files.findIndex((g) => g.fileName === f.fileName && g.bytes.length === f.bytes.length) === i);
  if (unique.length > NOTICES.maxAttachments) throw new AppError('VALIDATION_FAILED', { message: `at most ${NOTICES.maxAttachments} attachments` });
  const stored: { key: string; mime: string; bytes: number; fileName: string }[] = [];
  try {
    for (const f of unique) stored.push({ ...(await storeImage(ctx, f.bytes)), fileName: safeFileName(f.fileName) });
    return await ctx.database.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(notices)
        .values({ title: clean.title, content: clean.content, pinned: pinnedOf(input.pinned), authorName: author.nickname || null, createdBy: author.id })
        .returning({ id: notices.id });
      if (stored.length) {
        await tx.insert(noticeFiles).values(stored.map((s) => ({ noticeId: row!.id, kind: 'attachment' as const, storageKey: s.key, fileName: s.fileName, mime: s.mime, bytes: s.bytes })));
      }
      return { success: true as const, id: row!.id };
    });
  } catch (err) {
    await Promise.all(stored.map((s) => ctx.storage.delete(s.key).catch(() => {})));
    throw err;
  }
}

/** Edits title, content and pin (002 §7: JSON). @throws AppError NOT_FOUND, NOTICE_INCOMPLETE */
export async function updateNotice(ctx: Pick<AppContext, 'database'>, id: number, input: { title: string; content: string; pinned?: boolean | string }): Promise<{ success: true }> {
  const clean = cleanWrite(input);
  const rows = await ctx.database.db
    .update(notices)
    .set({ ...clean, ...(input.pinned !== undefined ? { pinned: pinnedOf(input.pinned) } : {}), updatedAt: new Date() })
    .where(eq(notices.id, id))
    .returning({ id: notices.id });
  if (!rows[0]) throw new AppError('NOT_FOUND');
  return { success: true };
}

/** Deletes a notice, its file rows and their stored files. @throws AppError NOT_FOUND */
export async function deleteNotice(ctx: AppContext, id: number): Promise<{ success: true }> {
  const files = await ctx.database.db.select({ id: noticeFiles.id, key: noticeFiles.storageKey }).from(noticeFiles).where(eq(noticeFiles.noticeId, id));
  const gone = await ctx.database.db.delete(notices).where(eq(notices.id, id)).returning({ id: notices.id });
  if (!gone[0]) throw new AppError('NOT_FOUND');
  await Promise.all(files.map((f) => ctx.storage.delete(f.key).catch(() => {})));
  return { success: true };
}

/** Stores an image pasted or dropped into the editor; the content then references its URL. */
export async function uploadInlineImage(ctx: AppContext, fileName: string, bytes: Buffer): Promise<{ success: true; imageUrl: string }> {
  const s = await storeImage(ctx, bytes);
  try {
    const [row] = await ctx.database.db
      .insert(noticeFiles)
      .values({ noticeId: null, kind: 'inline', storageKey: s.key, fileName: safeFileName(fileName), mime: s.mime, bytes: s.bytes })
      .returning({ id: noticeFiles.id });
    return { success: true, imageUrl: `${NOTICE_FILE_PATH}${row!.id}` };
  } catch (err) {
    await ctx.storage.delete(s.key).catch(() => {});
    throw err;
  }
}

/** A notice file to serve (public). @throws AppError NOT_FOUND */
export async function readNoticeFile(ctx: Pick<AppContext, 'database' | 'storage'>, id: number): Promise<{ bytes: Buffer; mime: string; fileName: string }> {
  const f = (await ctx.database.db.select().from(noticeFiles).where(eq(noticeFiles.id, id)))[0];
  if (!f) throw new AppError('NOT_FOUND');
  return { bytes: await ctx.storage.get(f.storageKey), mime: f.mime, fileName: f.fileName };
}

