import type { HistoryResponse, HistorySource } from '@dewy/contracts';
import { apiRequest } from '../../../lib/api-client';

/**
 * One page of the caller's completed items of one source (001 §4: My Page lists completed items only):
 * GET /api/image/history/{userId}?source=&status=completed&limit=&offset=.
 */
export function fetchCompletedHistoryPage(userId: number, source: HistorySource, limit: number, offset: number, signal?: AbortSignal): Promise<HistoryResponse> {
  const q = new URLSearchParams({ source, status: 'completed', limit: String(limit), offset: String(offset) });
  return apiRequest<HistoryResponse>(`/api/image/history/${userId}?${q.toString()}`, { signal });
}
