import type {
  AutoPromptRequest,
  AutoPromptResponse,
  SeedreamConfigResponse,
  SeedreamGenerateRequestRaw,
  SeedreamGenerateResponse,
  SeedreamHistoryResponse,
  SeedreamStatusResponse,
} from '@dewy/contracts';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/seedream/config: whether the vendor is configured and the prices (credits). */
export function fetchSeedreamConfig(): Promise<SeedreamConfigResponse> {
  return apiRequest<SeedreamConfigResponse>('/api/seedream/config');
}

/** POST /api/seedream/generate?async=1 (002 §7): the server charges 15 per image and queues the job. */
export function postSeedreamGenerate(body: SeedreamGenerateRequestRaw): Promise<SeedreamGenerateResponse> {
  return apiRequest<SeedreamGenerateResponse>('/api/seedream/generate?async=1', { method: 'POST', body: { ...body, async: true } });
}

/** GET /api/seedream/status/{id} (002 §7): status, urls, partial, error.code. */
export function fetchSeedreamStatus(taskId: string): Promise<SeedreamStatusResponse> {
  return apiRequest<SeedreamStatusResponse>(`/api/seedream/status/${encodeURIComponent(taskId)}`);
}

/** GET /api/seedream/history?grouped=1&status=completed&limit=&offset=[&q=] (002 §7). */
export function fetchSeedreamHistory(p: { limit: number; offset: number; q?: string }): Promise<SeedreamHistoryResponse> {
  const qs = new URLSearchParams({ grouped: '1', status: 'completed', limit: String(p.limit), offset: String(p.offset) });
  if (p.q) qs.set('q', p.q);
  return apiRequest<SeedreamHistoryResponse>(`/api/seedream/history?${qs.toString()}`);
}

/**
 * POST /api/seedream/auto-prompt {images (up to 4), userNotes} (002 §7; 5 credits, charged by that
 * route of the AI-text module, decision 022).
 */
export function postAutoPrompt(images: string[], userNotes: string): Promise<AutoPromptResponse> {
  const body: AutoPromptRequest = { images: images.slice(0, 4), userNotes };
  return apiRequest<AutoPromptResponse>('/api/seedream/auto-prompt', { method: 'POST', body });
}
