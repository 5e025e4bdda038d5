import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError } from '../../../lib/api-client';
import { fetchNotice, fetchNotices } from '../api/notices-api';

const KEY = ['notices'] as const;

/** One page of the notice list (GET /api/notices?page=). */
export function useNoticeList(page: number) {
  return useQuery({
    queryKey: [...KEY, 'list', page],
    queryFn: ({ signal }) => fetchNotices(page, signal),
    placeholderData: (prev) => prev,
    retry: 1,
  });
}

/** One notice with its attachments (GET /api/notices/{id}); disabled while `id` is not a valid number. */
export function useNotice(id: number | null) {
  return useQuery({
    queryKey: [...KEY, 'detail', id],
    queryFn: ({ signal }) => fetchNotice(id as number, signal),
    enabled: id !== null,
    retry: (count, err) => count < 1 && !(err instanceof ApiError && err.status === 404),
  });
}

/** Forgets every cached notice page and detail (after a create, edit or delete). */
export function useInvalidateNotices(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: KEY }), [client]);
}
