import type { HistorySource, JobStatusResponse } from '@dewy/contracts';
import { apiRequest } from '../../../lib/api-client';

/**
 * GET /api/image/status/{jobId} (001 §7).
 * @param source added as `?source=` when given (face edit sends `face_edit`; upscale sends none)
 */
export function fetchJobStatus(jobId: string, signal?: AbortSignal, source?: HistorySource): Promise<JobStatusResponse> {
  const query = source ? `?source=${encodeURIComponent(source)}` : '';
  return apiRequest<JobStatusResponse>(`/api/image/status/${encodeURIComponent(jobId)}${query}`, { signal });
}
