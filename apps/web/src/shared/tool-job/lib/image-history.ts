import type { HistoryImage, HistorySource } from '@dewy/contracts';
import { deleteHistoryItems, fetchToolHistoryPage } from '../api/history';
import type { HistoryPaging } from './history-paging';
import type { HistoryJob, ToolHistory } from './tool-definition';

/** What a history item of `GET /api/image/history` says about its job (001 §3): the main result first. */
export function historyImageJob(item: HistoryImage): HistoryJob {
  const urls = item.image_url ? [item.image_url, ...item.all_image_urls.filter((u) => u !== item.image_url)] : item.all_image_urls;
  return { jobId: item.runpod_job_id, status: item.status, urls, originalUrl: item.original_image_url };
}

/** The fields of a history item only the server knows, empty: an item the page makes itself starts from them. */
export const HISTORY_IMAGE_BLANKS = {
  prompt: null,
  seed: null,
  width: null,
  height: null,
  original_width: null,
  original_height: null,
  kling_task_id: null,
  seedream_task_id: null,
  input: null,
} as const satisfies Partial<HistoryImage>;

/** Temporary items get ids below zero, never those of the server's rows. */
let provisionalSeq = 0;

/**
 * A completed job of this visit as a history item before the server lists it so (001 §4 face edit:
 * "added to the top of history as a temporary item"): the item the list holds for that job (listed
 * while processing) with the result, or else a new one with a negative id, dated now, the fields only
 * the server knows (cost, seed, sizes, input) empty.
 */
export function provisionalHistoryImage(source: HistorySource, job: { jobId: string; urls: string[]; originalUrl: string | null }, existing?: HistoryImage, now = new Date()): HistoryImage {
  const at = now.toISOString();
  const result = { status: 'completed' as const, image_url: job.urls[0] ?? null, thumbnail_url: job.urls[0] ?? null, all_image_urls: job.urls, updated_at: at };
  if (existing) return { ...existing, ...result, original_image_url: existing.original_image_url ?? job.originalUrl };
  return {
    id: -++provisionalSeq,
    image_url: job.urls[0] ?? null,
    original_image_url: job.originalUrl,
    thumbnail_url: job.urls[0] ?? null,
    all_image_urls: job.urls,
    status: 'completed',
    source,
    runpod_job_id: job.jobId,
    ...HISTORY_IMAGE_BLANKS,
    cost: 0,
    created_at: at,
    updated_at: at,
  };
}

/**
 * The history of a kernel tool read by `GET /api/image/history/{userId}?source=&limit=&offset=` (001 §7),
 * item by item, newest first; on the first load the newest result is shown unless `opts.showLatest` is false.
 * @param paging the tool's page sizes (face edit: 10 first, 15 on reload)
 * @param opts.provisional a completed job of this visit goes to the top of the list at once (001 §4, face edit)
 */
export function imageHistory(source: HistorySource, paging: HistoryPaging, opts: { showLatest?: boolean; provisional?: boolean } = {}): ToolHistory<HistoryImage> {
  return {
    paging,
    showLatest: opts.showLatest ?? true,
    fetchPage: async (userId, page, signal) => {
      const res = await fetchToolHistoryPage(userId, source, { offset: page.offset, limit: page.limit }, signal);
      return { items: res.images, nextOffset: res.pagination.hasMore ? res.pagination.nextOffset : null };
    },
    keyOf: (item) => item.id,
    jobOf: historyImageJob,
    remove: async (items) => void (await deleteHistoryItems(items.map((i) => i.id))),
    ...(opts.provisional ? { provisional: (job: { jobId: string; urls: string[]; originalUrl: string | null }, existing: HistoryImage | undefined) => provisionalHistoryImage(source, job, existing) } : {}),
  };
}
