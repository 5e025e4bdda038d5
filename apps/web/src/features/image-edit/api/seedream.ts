import type {
  AutoPromptRequest,
  AutoPromptResponse,
  SeedreamConfigResponse,
  SeedreamGenerateRequestRaw,
  SeedreamGenerateResponse,
  SeedreamHistoryResponse,
  SeedreamStatusResponse,
} from '@dewy/contracts';
import { api } from '../../../lib/api-client';

/** GET /api/seedream/config: whether the vendor is configured and the prices (credits). */
export function fetchSeedreamConfig(): Promise<SeedreamConfigResponse> {
  return api.get('/api/seedream/config');
}

/** POST /api/seedream/generate?async=1 (002 §7): the server charges 15 per image and queues the job. */
export function postSeedreamGenerate(body: SeedreamGenerateRequestRaw): Promise<SeedreamGenerateResponse> {
  return api.post('/api/seedream/generate', { query: { async: '1' }, body: { ...body, async: true } });
}

/** GET /api/seedream/status/{id} (002 §7): status, urls, partial, error.code. */
export function fetchSeedreamStatus(taskId: string): Promise<SeedreamStatusResponse> {
  return api.get('/api/seedream/status/{id}', { path: { id: taskId } });
}

/** GET /api/seedream/history?grouped=1&status=completed&limit=&offset=[&q=] (002 §7). */
export function fetchSeedreamHistory(p: { limit: number; offset: number; q?: string }): Promise<SeedreamHistoryResponse> {
  return api.get('/api/seedream/history', { query: { grouped: '1', status: 'completed', limit: p.limit, offset: p.offset, q: p.q || undefined } });
}

/**
 * POST /api/seedream/auto-prompt {images (up to 4), userNotes} (002 §7; 5 credits, charged by that
 * route of the AI-text module, decision 022).
 */
export function postAutoPrompt(images: string[], userNotes: string): Promise<AutoPromptResponse> {
  const body: AutoPromptRequest = { images: images.slice(0, 4), userNotes };
  return api.post('/api/seedream/auto-prompt', { body });
}
