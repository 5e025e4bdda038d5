import type { ChargeEnabledResponse, ChatMessage, ChatSendResponse, ChatStreamEvent, MessageListResponse, ThreadListResponse } from '@dewy/contracts';
import { AI_LIMITS } from '@dewy/contracts';
import { ApiError, apiRequest, dispatchAuthInvalid } from '../../../lib/api-client';
import { createSseParser } from '../lib/sse';

/** The prompt chat's calls (spec 002 §7). */

/** GET /api/ai/threads?limit=50&cursor= */
export function fetchThreads(cursor?: string | null): Promise<ThreadListResponse> {
  const q = new URLSearchParams({ limit: String(AI_LIMITS.threadPageSize) });
  if (cursor) q.set('cursor', cursor);
  return apiRequest<ThreadListResponse>(`/api/ai/threads?${q}`);
}

/** GET /api/ai/threads/{id}/messages?limit=100[&before=] */
export function fetchMessages(threadId: string, before?: number): Promise<MessageListResponse> {
  const q = new URLSearchParams({ limit: String(AI_LIMITS.messagePageSize) });
  if (before) q.set('before', String(before));
  return apiRequest<MessageListResponse>(`/api/ai/threads/${encodeURIComponent(threadId)}/messages?${q}`);
}

/** DELETE /api/ai/threads/{id} */
export function deleteThread(threadId: string): Promise<{ success: true }> {
  return apiRequest(`/api/ai/threads/${encodeURIComponent(threadId)}`, { method: 'DELETE' });
}

/** GET /api/ai/chat/charge-enabled */
export function fetchChargeEnabled(): Promise<ChargeEnabledResponse> {
  return apiRequest<ChargeEnabledResponse>('/api/ai/chat/charge-enabled');
}

export interface StreamHandlers {
  onStart(e: Extract<ChatStreamEvent, { event: 'start' }>['data']): void;
  onDelta(text: string): void;
}

/**
 * POST /api/ai/chat as multipart (text, threadId, image) with `Accept: text/event-stream`: the answer
 * arrives piece by piece. Resolves with the final answer; rejects with ApiError for an error before the
 * stream (HTTP status + code) or an `error` event (status 0 is never used there: 502 stands in), and with
 * an AbortError when `signal` aborts (the stop button).
 */
export async function sendChatStreaming(form: FormData, handlers: StreamHandlers, signal: AbortSignal): Promise<ChatSendResponse> {
  const res = await fetch('/api/ai/chat', { method: 'POST', body: form, credentials: 'include', cache: 'no-store', signal, headers: { Accept: 'text/event-stream', 'Cache-Control': 'no-store' } }).catch((err: unknown) => {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', String(err), undefined, null);
  });
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const body = (await res.json().catch(() => ({}))) as { code?: string; error?: string; message?: string };
    if (res.status === 401 || res.status === 419) dispatchAuthInvalid(body.message ?? body.error);
    throw new ApiError(res.status, body.code, body.message ?? body.error ?? `HTTP ${res.status}`, body.error, body);
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const e of parser.push(decoder.decode(value, { stream: true }))) {
      const data = JSON.parse(e.data) as never;
      if (e.event === 'start') handlers.onStart(data);
      else if (e.event === 'delta') handlers.onDelta((data as { text: string }).text);
      else if (e.event === 'done') return data as ChatSendResponse;
      else if (e.event === 'error') {
        const err = data as { code: string; error: string; message: string };
        throw new ApiError(502, err.code, err.message, err.error, err);
      }
    }
  }
  throw new ApiError(0, 'NETWORK', 'stream ended early', undefined, null);
}

export type { ChatMessage };
