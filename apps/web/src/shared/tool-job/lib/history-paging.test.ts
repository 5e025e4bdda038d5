import { describe, expect, it } from 'vitest';
import type { HistoryImage, HistoryResponse } from '@dewy/contracts';
import { firstPageLimit, mergeHistoryPage } from './history-paging';

const paging = { first: 10, reload: 15, more: 10 };

function item(id: number): HistoryImage {
  return {
    id, image_url: null, original_image_url: null, thumbnail_url: null, all_image_urls: [], status: 'completed', source: 'face_edit',
    runpod_job_id: null, prompt: null, seed: null, cost: 85, width: null, height: null, original_width: null, original_height: null,
    kling_task_id: null, seedream_task_id: null, input: null, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
  };
}
const page = (ids: number[], hasMore: boolean, nextOffset: number | null): HistoryResponse => ({ images: ids.map(item), pagination: { hasMore, nextOffset } });

describe('paged history (001 §7: face edit 10, 15 on reload)', () => {
  it('loads 10 first, 15 on a reload, and never fewer than are shown', () => {
    expect(firstPageLimit(paging, null)).toBe(10);
    expect(firstPageLimit(paging, 10)).toBe(15);
    expect(firstPageLimit(paging, 0)).toBe(15);
    expect(firstPageLimit(paging, 30)).toBe(30);
  });
  it('appends the next page without repeating an item that moved down', () => {
    const merged = mergeHistoryPage(page([9, 8, 7], true, 3), page([7, 6, 5], false, null));
    expect(merged.images.map((i) => i.id)).toEqual([9, 8, 7, 6, 5]);
    expect(merged.pagination).toEqual({ hasMore: false, nextOffset: null });
  });
});
