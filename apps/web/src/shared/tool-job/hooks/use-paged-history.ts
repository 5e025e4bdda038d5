import type { HistoryResponse, HistorySource } from '@dewy/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { fetchToolHistoryPage, toolHistoryKey } from '../api/history';
import { firstPageLimit, mergeHistoryPage, type HistoryPaging } from '../lib/history-paging';

/** Query key of a tool's paged history; invalidating {@link toolHistoryKey} reloads it too (prefix). */
export const pagedToolHistoryKey = (source: HistorySource, userId: number | undefined) => [...toolHistoryKey(source, userId), 'paged'] as const;

/**
 * A tool's history in pages (001 §7): the first load takes `paging.first` items, a reload (invalidate
 * {@link toolHistoryKey}, refocus) `paging.reload` or as many as are shown, and `loadMore` appends the
 * next `paging.more`. Disabled while signed out.
 * @param paging page sizes (keep it stable: a module constant)
 * @returns the query, `hasMore`, `loadingMore` and `loadMore` (rejects when the page could not load)
 */
export function usePagedToolHistory(source: HistorySource, userId: number | undefined, paging: HistoryPaging) {
  const queryClient = useQueryClient();
  const key = useMemo(() => pagedToolHistoryKey(source, userId), [source, userId]);
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => {
      const shown = queryClient.getQueryData<HistoryResponse>(key)?.images.length ?? null;
      return fetchToolHistoryPage(userId as number, source, { offset: 0, limit: firstPageLimit(paging, shown) }, signal);
    },
    enabled: userId !== undefined,
    staleTime: 0,
  });
  const [loadingMore, setLoadingMore] = useState(false);
  const loadMore = useCallback(async () => {
    const current = queryClient.getQueryData<HistoryResponse>(key);
    const offset = current?.pagination.nextOffset;
    if (userId === undefined || !current?.pagination.hasMore || offset === null || offset === undefined) return;
    setLoadingMore(true);
    try {
      const next = await fetchToolHistoryPage(userId, source, { offset, limit: paging.more });
      queryClient.setQueryData<HistoryResponse>(key, (prev) => (prev ? mergeHistoryPage(prev, next) : next));
    } finally {
      setLoadingMore(false);
    }
  }, [queryClient, key, userId, source, paging.more]);
  return { ...query, hasMore: query.data?.pagination.hasMore ?? false, loadingMore, loadMore };
}
