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

/**
 * POST /api/image/history/delete {ids}: deletes history items of the signed-in user for good (their
 * files too; nothing refunded; issue 28, point 12). All or nothing: throws ApiError (NOT_FOUND,
 * JOB_IN_PROGRESS…) and deletes none when one id cannot be deleted.
 * @returns the ids deleted
 */
export async function deleteHistoryItems(ids: number[]): Promise<number[]> {
  const res = await api.post('/api/image/history/delete', { body: { ids } });
  return res.deleted;
}
