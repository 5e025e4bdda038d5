import type { HistoryImage } from '@dewy/contracts';
import { HISTORY_IMAGE_BLANKS } from '../lib/image-history';

/** A history item of `GET /api/image/history` (001 §3) with test defaults; `over` sets the fields a test needs. */
export function historyImage(over: Partial<HistoryImage> & Pick<HistoryImage, 'id' | 'status' | 'source'>): HistoryImage {
  return {
    image_url: null,
    original_image_url: null,
    thumbnail_url: null,
    all_image_urls: [],
    runpod_job_id: null,
    ...HISTORY_IMAGE_BLANKS,
    cost: 80,
    created_at: '2026-11-27T00:00:00.000Z',
    updated_at: '2026-11-27T00:00:00.000Z',
    ...over,
  };
}
