import type { HistoryImage, HistorySource } from '@dewy/contracts';
import { fetchToolHistoryPage } from '../api/history';
import type { HistoryPaging } from './history-paging';
import type { HistoryJob, ToolHistory } from './tool-definition';

/** What a history item of `GET /api/image/history` says about its job (001 §3): the main result first. */
export function historyImageJob(item: HistoryImage): HistoryJob {
  const urls = item.image_url ? [item.image_url, ...item.all_image_urls.filter((u) => u !== item.image_url)] : item.all_image_urls;
  return { jobId: item.runpod_job_id, status: item.status, urls, originalUrl: item.original_image_url };
}

/**
 * The history of a kernel tool read by `GET /api/image/history/{userId}?source=&limit=&offset=` (001 §7),
 * item by item, newest first; on the first load the newest result is shown unless `showLatest` is false.
 * @param paging the tool's page sizes (face edit: 10 first, 15 on reload)
 */
export function imageHistory(source: HistorySource, paging: HistoryPaging, showLatest = true): ToolHistory<HistoryImage> {
  return {
    paging,
    showLatest,
    fetchPage: async (userId, page, signal) => {
      const res = await fetchToolHistoryPage(userId, source, { offset: page.offset, limit: page.limit }, signal);
      return { items: res.images, nextOffset: res.pagination.hasMore ? res.pagination.nextOffset : null };
    },
    keyOf: (item) => item.id,
    jobOf: historyImageJob,
  };
}
