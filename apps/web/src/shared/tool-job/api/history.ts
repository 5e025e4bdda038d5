import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HistoryResponse, HistorySource } from '@dewy/contracts';
import { api } from '../../../lib/api-client';

/** GET /api/image/history/{userId}?source=… (001 §7), newest first. */
export function fetchToolHistory(userId: number, source: HistorySource): Promise<HistoryResponse> {
  return api.get('/api/image/history/{userId}', { path: { userId }, query: { source, limit: 100 } });
}

/** One page of a tool's history: GET /api/image/history/{userId}?source=&limit=&offset= (001 §7). */
export function fetchToolHistoryPage(
  userId: number,
  source: HistorySource,
  page: { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<HistoryResponse> {
  return api.get('/api/image/history/{userId}', { path: { userId }, query: { source, limit: page.limit, offset: page.offset }, signal });
}

export const toolHistoryKey = (source: HistorySource, userId: number | undefined) => ['tool-history', source, userId] as const;

export function toolHistoryOptions(source: HistorySource, userId: number | undefined) {
  return queryOptions({
    queryKey: toolHistoryKey(source, userId),
    queryFn: () => fetchToolHistory(userId as number, source),
    enabled: userId !== undefined,
    staleTime: 0,
  });
}

/** One tool's history for the signed-in user (disabled while signed out). */
export function useToolHistory(source: HistorySource, userId: number | undefined) {
  return useQuery(toolHistoryOptions(source, userId));
}
