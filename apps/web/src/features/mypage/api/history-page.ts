import type { HistoryImage, HistoryResponse, HistorySource, SeedreamHistoryItem, SeedreamHistoryResponse } from '@dewy/contracts';
import { api } from '../../../lib/api-client';

/**
 * One page of the caller's completed items of one source (001 §4: My Page lists completed items only).
 * Image edit (`seedream`) is read where 001 §7 reads it for the Image Edit tab,
 * GET /api/seedream/history?grouped=1&status=completed&limit=&offset=, and its items are shown as
 * history images; every other source comes from
 * GET /api/image/history/{userId}?source=&status=completed&limit=&offset=.
 */
export async function fetchCompletedHistoryPage(userId: number, source: HistorySource, limit: number, offset: number, signal?: AbortSignal): Promise<HistoryResponse> {
  if (source === 'seedream') return fetchImageEditPage(limit, offset, signal);
  return api.get('/api/image/history/{userId}', { path: { userId }, query: { source, status: 'completed', limit, offset }, signal });
}

/**
 * A page of completed image edits as history images. The server leaves out items whose files retention
 * deleted, so a page can come back empty while more follow: such pages are skipped (at most 20 in a row)
 * so that an empty page never reads as the end of the list.
 */
async function fetchImageEditPage(limit: number, offset: number, signal?: AbortSignal): Promise<HistoryResponse> {
  let at = offset;
  for (let skipped = 0; ; skipped++) {
    const page: SeedreamHistoryResponse = await api.get('/api/seedream/history', { query: { grouped: '1', status: 'completed', limit, offset: at }, signal });
    const next = page.pagination.nextOffset ?? at + limit;
    if (page.items.length > 0 || !page.pagination.hasMore || skipped >= 20) {
      return { images: page.items.map(imageEditAsHistoryImage), pagination: { hasMore: page.pagination.hasMore, nextOffset: page.pagination.hasMore ? next : null } };
    }
    at = next;
  }
}

/** An image-edit item (002 §3) in the shape My Page's history cards read (its first result is the image). */
export function imageEditAsHistoryImage(item: SeedreamHistoryItem): HistoryImage {
  return {
    id: item.id,
    image_url: item.image_url,
    original_image_url: item.original_image_url,
    thumbnail_url: null,
    all_image_urls: item.all_image_urls,
    status: item.status,
    source: 'seedream',
    runpod_job_id: null,
    prompt: item.prompt,
    seed: item.seed,
    cost: item.cost,
    width: null,
    height: null,
    original_width: null,
    original_height: null,
    kling_task_id: null,
    seedream_task_id: item.seedream_task_id,
    input: null,
    created_at: item.created_at,
    updated_at: item.created_at,
    expired_at: null,
  };
}
