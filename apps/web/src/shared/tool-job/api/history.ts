import type { HistoryResponse, HistorySource } from '@dewy/contracts';
import { api } from '../../../lib/api-client';

/** One page of a tool's history: GET /api/image/history/{userId}?source=&limit=&offset= (001 §7). */
export function fetchToolHistoryPage(
  userId: number,
  source: HistorySource,
  page: { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<HistoryResponse> {
  return api.get('/api/image/history/{userId}', { path: { userId }, query: { source, limit: page.limit, offset: page.offset }, signal });
}
