import type { HistorySource, JobStatusResponse } from '@dewy/contracts';
import { api } from '../../../lib/api-client';

/**
 * GET /api/image/status/{jobId} (001 §7).
 * @param source added as `?source=` when given (face edit sends `face_edit`; upscale sends none)
 */
export function fetchJobStatus(jobId: string, signal?: AbortSignal, source?: HistorySource): Promise<JobStatusResponse> {
  return api.get('/api/image/status/{jobId}', { path: { jobId }, query: { source }, signal });
}
