import { IMAGE_EDIT, type SeedreamGenerateResponse, type SeedreamHistoryItem, type SeedreamHistoryResponse, type SeedreamStatusResponse, type ToolJobCreated } from '@dewy/contracts';
import type { AppContext } from '../../context';
import type { JobRow } from '../../db/schema';
import { viewUrl } from '../uploads';
import { resultUrlsOf } from '../images';
import type { ToolJobsPage } from '../tool-jobs';

/**
 * How image-edit jobs appear to the page (spec 002 §3/§7, decision 023), the `present` part of the
 * image-edit tool (decision 035): the `seedream-<jobId>` task id, the generate answer, its own status
 * and history shapes, and its fields of the generic history item. The rows come from the kernel
 * (`findToolJob`, `toolJobsPage`).
 */

/** The task id the page sees for an image-edit job (002 §3 `seedream_task_id`): `seedream-<jobId>`. */
export const seedreamTaskId = (jobId: string) => `seedream-${jobId}`;

/**
 * The 002 §8 error of a failed row (`error.code` / `error_code` on the wire): its `error_code` — the
 * vendor's code (InvalidParameter.OversizeImage…) or ours (NOT_CONFIGURED…) — except the kernel's own
 * reasons: a timeout or a lost worker is the vendor's `InternalServiceError` (a temporary service
 * error, credits refunded), an untyped failure `GenerationFailed`. `message` is the row's detail.
 */
export function errorOfRow(row: Pick<JobRow, 'status' | 'errorCode' | 'error'>): { code: string; message: string } | null {
  if (row.status !== 'failed') return null;
  const code = row.errorCode === 'JOB_TIMEOUT' || row.errorCode === 'JOB_LOST' ? 'InternalServiceError' : !row.errorCode || row.errorCode === 'JOB_FAILED' ? 'GenerationFailed' : row.errorCode;
  return { code, message: (row.error ?? '').slice(0, 300) };
}

/** The job id of a `seedream-<jobId>` task id; null for anything else (the kernel then takes the id as a bare job id). */
function jobIdOfTask(id: string): string | null {
  return id.startsWith('seedream-') ? id.slice('seedream-'.length) : null;
}

/** Whether a completed image-edit row delivered fewer images than ordered (the rest was refunded). */
function isPartial(row: JobRow): boolean {
  const meta = (row.meta ?? {}) as { ordered?: number; delivered?: number };
  return row.status === 'completed' && typeof meta.ordered === 'number' && typeof meta.delivered === 'number' && meta.delivered < meta.ordered;
}

/**
 * GET /api/seedream/status/{id} (002 §7) of one of the caller's rows: status, the result URLs (signed),
 * `partial` when fewer images than ordered were made (the rest was refunded), and the error code of a
 * failed job (refunded).
 */
async function imageEditStatus(ctx: AppContext, row: JobRow): Promise<SeedreamStatusResponse> {
  const urls = row.status === 'completed' ? await resultUrlsOf(ctx, row) : [];
  return { success: true, status: row.status, urls, partial: isPartial(row), error: errorOfRow(row) };
}

async function presentItem(ctx: AppContext, row: JobRow): Promise<SeedreamHistoryItem> {
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
 * GET /api/seedream/history (002 §7) of a page of the caller's image-edit rows (newest first, status and
 * prompt search applied by the kernel): one item per job (grouped: all its images together). With
 * `status=completed`, items whose files were deleted by retention are left out (no valid URLs, 002 §5).
 */
async function imageEditHistory(ctx: AppContext, page: ToolJobsPage, q: { status?: string }): Promise<SeedreamHistoryResponse> {
  const items = await Promise.all(page.rows.map((r) => presentItem(ctx, r)));
  return {
    success: true,
    items: q.status === 'completed' ? items.filter((i) => i.image_urls.length > 0) : items,
    pagination: { nextOffset: page.nextOffset, hasMore: page.hasMore },
  };
}

/** The image-edit tool's presenter (see the file comment). */
export const imageEditPresenter = {
  taskId: { of: seedreamTaskId, jobIdOf: jobIdOfTask },
  /** The answer of POST /api/seedream/generate (002 §7): the task id, `urls` empty while processing. */
  created: (job: ToolJobCreated): SeedreamGenerateResponse => ({ success: true, status: job.status, seedream_task_id: seedreamTaskId(job.jobId), urls: [], cost: job.cost, credits: job.credits }),
  partial: isPartial,
  historyFields: (row: JobRow) => ({ seedream_task_id: seedreamTaskId(row.jobId) }),
  status: imageEditStatus,
  history: imageEditHistory,
};
