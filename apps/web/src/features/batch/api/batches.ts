import type { BatchCreateRequestRaw, BatchResponse } from '@dewy/contracts';
import { useQuery } from '@tanstack/react-query';
import { ApiError, api, apiUrl } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

/**
 * The batch calls of the page (decision 040 §4, session routes of a verified account): create, read,
 * pause (cancel the queued photos), resume, retry one photo, and the zip's address.
 */

/** Query key of one batch. */
export const batchKey = (id: string) => ['batch', id] as const;

/** POST /api/batches: one job per photo, charged in order until the credits run out. */
export function postBatch(body: BatchCreateRequestRaw, idempotencyKey: string): Promise<BatchResponse> {
  return api.post('/api/batches', { body, header: { 'idempotency-key': idempotencyKey } });
}

/** GET /api/batches/{id}: the photos with their statuses, costs and URLs. */
export function getBatch(id: string, signal?: AbortSignal): Promise<BatchResponse> {
  return api.get('/api/batches/{id}', { path: { id }, signal });
}

/** POST /api/batches/{id}/cancel: queued photos cancelled and refunded at once ("pause"). */
export function pauseBatch(id: string): Promise<BatchResponse> {
  return api.post('/api/batches/{id}/cancel', { path: { id } });
}

/** POST /api/batches/{id}/resume: cancelled and credit-refused photos started again, charged anew. */
export function resumeBatch(id: string): Promise<BatchResponse> {
  return api.post('/api/batches/{id}/resume', { path: { id } });
}

/** POST /api/batches/{id}/photos/{position}/retry: one failed or refused photo, charged anew. */
export function retryBatchPhoto(id: string, position: number): Promise<BatchResponse> {
  return api.post('/api/batches/{id}/photos/{position}/retry', { path: { id, position } });
}

/** GET /api/batches/{id}/zip: the finished results as one zip (a plain link: the browser downloads it). */
export function batchZipUrl(id: string): string {
  return apiUrl('get', '/api/batches/{id}/zip', { path: { id } });
}

/** One batch, read once; the page refreshes it on job events and on the spec's schedule (useBatchFollow). */
export function useBatch(id: string | null) {
  const { user, status } = useSession();
  return useQuery({
    queryKey: batchKey(id ?? ''),
    queryFn: ({ signal }) => getBatch(id!, signal),
    enabled: Boolean(id) && Boolean(user) && status !== 'unauthenticated',
    staleTime: Infinity,
    retry: (count, err) => count < 2 && !(err instanceof ApiError && (err.status === 404 || err.sessionEnded)),
  });
}
