import type { JobStatusResponse } from '@dewy/contracts';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/image/status/{jobId}. */
export function fetchJobStatus(jobId: string, signal?: AbortSignal): Promise<JobStatusResponse> {
  return apiRequest<JobStatusResponse>(`/api/image/status/${encodeURIComponent(jobId)}`, { signal });
}
