import { and, desc, eq, ilike } from 'drizzle-orm';
import { IMAGE_EDIT, type SeedreamHistoryItem, type SeedreamHistoryResponse, type SeedreamStatusResponse } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { images, type ImageRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { viewUrl } from '../uploads/image-urls';
import { resultUrlsOf } from '../images/images.service';

/** The task id the page sees for an image-edit job (002 §3 `seedream_task_id`): `seedream-<jobId>`. */
export const seedreamTaskId = (jobId: string) => `seedream-${jobId}`;

/** The vendor's (or our) error code of a failed row: the stored error reads `<Code>: <message>`. */
export function errorOfRow(row: Pick<ImageRow, 'status' | 'error'>): { code: string; message: string } | null {
  if (row.status !== 'failed') return null;
  const text = row.error ?? '';
  const m = /^([A-Za-z][A-Za-z0-9_.]*): ?([\s\S]*)$/.exec(text);
  if (m && m[1] !== 'Error') return { code: m[1]!, message: m[2]!.slice(0, 300) };
  return { code: text === 'JOB_TIMEOUT' || text.includes('heartbeat') ? 'InternalServiceError' : 'GenerationFailed', message: text.slice(0, 300) };
}

/** One of the caller's image-edit rows by `seedream-<jobId>` or the bare job id. @throws AppError NOT_FOUND */
async function ownRow(ctx: AppContext, userId: number, id: string): Promise<ImageRow> {
  const jobId = id.startsWith('seedream-') ? id.slice('seedream-'.length) : id;
  if (!/^[0-9a-f-]{36}$/i.test(jobId)) throw new AppError('NOT_FOUND');
  const row = (await ctx.database.db.select().from(images).where(and(eq(images.jobId, jobId), eq(images.userId, userId), eq(images.source, 'seedream'))))[0];
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/**
 * GET /api/seedream/status/{id} (002 §7): status, the result URLs (signed), `partial` when fewer images
 * than ordered were made (the rest was refunded), and the error code of a failed job (refunded).
 * Another user's job answers NOT_FOUND, as an unknown one.
 */
export async function imageEditStatus(ctx: AppContext, userId: number, id: string): Promise<SeedreamStatusResponse> {
  const row = await ownRow(ctx, userId, id);
  const urls = row.status === 'completed' ? await resultUrlsOf(ctx, row) : [];
  const meta = (row.meta ?? {}) as { ordered?: number; delivered?: number };
  return {
    success: true,
    status: row.status,
    urls,
    partial: row.status === 'completed' && typeof meta.ordered === 'number' && typeof meta.delivered === 'number' && meta.delivered < meta.ordered,
    error: errorOfRow(row),
  };
}

/** LIKE pattern of a literal search text (escapes %, _ and \). */
const likeLiteral = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

async function presentItem(ctx: AppContext, row: ImageRow): Promise<SeedreamHistoryItem> {
  const urls = row.status === 'completed' ? (await resultUrlsOf(ctx, row)).slice(0, IMAGE_EDIT.historyUrlsPerItem) : [];
  const input = (row.input ?? {}) as { images?: string[]; size?: string; num_images?: number };
  const refUrls: string[] = [];
  if (row.originalKey) refUrls.push(await viewUrl(ctx, row.originalKey));
  const err = errorOfRow(row);
  const state = row.status === 'completed' ? 'succeeded' : row.status;
  return {
    id: row.id,
    seedream_task_id: seedreamTaskId(row.jobId),
    run_id: row.jobId,
    status: row.status,
    run_status: state,
    state,
    all_image_urls: urls,
    image_urls: urls,
    image_url: urls[0] ?? null,
    prompt: row.prompt,
    seed: row.seed,
    size: typeof input.size === 'string' ? input.size : null,
    num_images: typeof input.num_images === 'number' ? input.num_images : 1,
    ref_image_urls: refUrls,
    original_image_url: refUrls[0] ?? null,
    error_code: err?.code ?? null,
    cost: row.cost,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * GET /api/seedream/history (002 §7): the caller's image-edit jobs, newest first, one item per job
 * (grouped: all its images together), optionally only one status and only prompts containing `q`
 * (case-insensitive, literal). With `status=completed`, items whose files were deleted by retention
 * are left out (no valid URLs, 002 §5).
 */
export async function imageEditHistory(
  ctx: AppContext,
  userId: number,
  q: { status?: 'processing' | 'completed' | 'failed'; limit: number; offset: number; q?: string },
): Promise<SeedreamHistoryResponse> {
  const where = and(
    eq(images.userId, userId),
    eq(images.source, 'seedream'),
    q.status ? eq(images.status, q.status) : undefined,
    q.q ? ilike(images.prompt, likeLiteral(q.q)) : undefined,
  );
  const rows = await ctx.database.db.select().from(images).where(where).orderBy(desc(images.createdAt), desc(images.id)).limit(q.limit + 1).offset(q.offset);
  const page = rows.slice(0, q.limit);
  const items = await Promise.all(page.map((r) => presentItem(ctx, r)));
  const hasMore = rows.length > q.limit;
  return {
    success: true,
    items: q.status === 'completed' ? items.filter((i) => i.image_urls.length > 0) : items,
    pagination: { nextOffset: hasMore ? q.offset + q.limit : null, hasMore },
  };
}
