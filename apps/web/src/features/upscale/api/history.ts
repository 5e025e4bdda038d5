import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HistoryResponse } from '@dewy/contracts';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/image/history/{userId}?source=upscale (001 §7). */
export function fetchUpscaleHistory(userId: number): Promise<HistoryResponse> {
  return apiRequest<HistoryResponse>(`/api/image/history/${userId}?source=upscale&limit=100`);
}

export const upscaleHistoryKey = (userId: number | undefined) => ['upscale-history', userId] as const;

export function upscaleHistoryOptions(userId: number | undefined) {
  return queryOptions({
    queryKey: upscaleHistoryKey(userId),
    queryFn: () => fetchUpscaleHistory(userId as number),
    enabled: userId !== undefined,
    staleTime: 0,
  });
}

export function useUpscaleHistory(userId: number | undefined) {
  return useQuery(upscaleHistoryOptions(userId));
}
