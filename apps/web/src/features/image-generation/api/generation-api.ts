import type {
  CreditUseResponse,
  ExtractPromptResponse,
  GroupedHistoryQuery,
  HistoryResponse,
  ImageGenerationCreated,
  JobStatusResponse,
  RewriteRequest,
  RewriteResponse,
  UploadResponse,
} from '@dewy/contracts';
import { AI_COSTS } from '@dewy/contracts';
import { api, apiUrl } from '../../../lib/api-client';

/**
 * The consistency tool's calls (spec 002 §7), and the AI-text helpers it uses (rewrite, extract prompt,
 * credit use; their shapes are the AI module's contracts, decision 022).
 */

/** POST /api/kling/image-generation (multipart: character_reference_images, num_images, prompt, aspect_ratio). */
export function postGeneration(p: { prompt: string; numImages: number; aspectRatio: string; reference: File | null }): Promise<ImageGenerationCreated> {
  const form = new FormData();
  if (p.reference) form.append('character_reference_images', p.reference, p.reference.name);
  form.append('num_images', String(p.numImages));
  form.append('prompt', p.prompt);
  form.append('aspect_ratio', p.aspectRatio);
  return api.post('/api/kling/image-generation', { body: form });
}

/** GET /api/image/status/{taskId}: status, images, imageUrl, partial. */
export function fetchGenerationStatus(taskId: string): Promise<JobStatusResponse> {
  return api.get('/api/image/status/{jobId}', { path: { jobId: taskId } });
}

/** GET /api/image/history/{userId}?source=kling&grouped=1&group_limit=N&group_offset=N[&q=text] (002 §7). */
export function fetchGenerationHistory(userId: number, q: GroupedHistoryQuery): Promise<HistoryResponse> {
  return api.get('/api/image/history/{userId}', { path: { userId }, query: { source: 'kling', grouped: '1', group_limit: q.group_limit ?? 10, group_offset: q.group_offset ?? 0, q: q.q || undefined } });
}

/** GET /api/auth/banned-keywords: success, keywords. */
export async function fetchBannedKeywords(): Promise<string[]> {
  const res = await api.get('/api/auth/banned-keywords');
  return Array.isArray(res.keywords) ? res.keywords : [];
}

/** POST /api/image/result-to-upload: one of my results copied into a new upload (send-to-upscale). */
export function resultToUpload(url: string): Promise<UploadResponse> {
  return api.post('/api/image/result-to-upload', { body: { url } });
}

/** POST /api/ai/extract-prompt-from-image: raw bytes as application/octet-stream → success, prompt, error (002 §7). */
export async function extractPromptFromImage(file: Blob): Promise<string> {
  const res = await fetch(apiUrl('post', '/api/ai/extract-prompt-from-image'), {
    method: 'POST',
    credentials: 'include',
    cache: 'no-store',
    headers: { 'content-type': 'application/octet-stream', accept: 'application/json' },
    body: file,
  });
  const body = (await res.json().catch(() => null)) as (ExtractPromptResponse & { error?: string; message?: string }) | null;
  if (!res.ok || !body?.success || typeof body.prompt !== 'string' || !body.prompt.trim()) throw new Error(body?.message ?? body?.error ?? `HTTP ${res.status}`);
  return body.prompt.trim();
}

/** POST /api/ai/rewrite {userPrompt, currentPrompt, threadId} → rewrittenPrompt, threadId, rewriteId (002 §7; 3 credits, charged by the rewrite). */
export function rewritePrompt(p: RewriteRequest): Promise<RewriteResponse> {
  return api.post('/api/ai/rewrite', { body: p });
}

/**
 * POST /api/credit/use {amount: 3, rewriteId}: the spec's charge call after a rewrite. It confirms the
 * charge the rewrite already made (never a second one) and is idempotent per rewrite (decision 022).
 */
export function confirmRewriteCharge(rewriteId: string | undefined): Promise<CreditUseResponse> {
  return api.post('/api/credit/use', { body: { amount: AI_COSTS.rewrite, rewriteId } });
}
