import type { ChargeEnabledResponse, ChatMessage, ChatSendResponse, ChatStreamEvent, MessageListResponse, ThreadListResponse } from '@dewy/contracts';
import { AI_LIMITS } from '@dewy/contracts';
import { api, ApiError, apiUrl, dispatchAuthInvalid } from '../../../lib/api-client';
import { createSseParser } from '../lib/sse';

/** The prompt chat's calls (spec 002 §7). */

/** GET /api/ai/threads?limit=50&cursor= */
export function fetchThreads(cursor?: string | null): Promise<ThreadListResponse> {
  return api.get('/api/ai/threads', { query: { limit: AI_LIMITS.threadPageSize, cursor: cursor || undefined } });
}

/** GET /api/ai/threads/{id}/messages?limit=100[&before=] */
export function fetchMessages(threadId: string, before?: number): Promise<MessageListResponse> {
  return api.get('/api/ai/threads/{id}/messages', { path: { id: threadId }, query: { limit: AI_LIMITS.messagePageSize, before: before || undefined } });
}

/** DELETE /api/ai/threads/{id} */
export function deleteThread(threadId: string): Promise<{ success: true }> {
  return api.delete('/api/ai/threads/{id}', { path: { id: threadId } });
}

/** GET /api/ai/chat/charge-enabled */
export function fetchChargeEnabled(): Promise<ChargeEnabledResponse> {
  return api.get('/api/ai/chat/charge-enabled');
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
  const res = await fetch(apiUrl('post', '/api/ai/chat'), { method: 'POST', body: form, credentials: 'include', cache: 'no-store', signal, headers: { Accept: 'text/event-stream', 'Cache-Control': 'no-store' } }).catch((err: unknown) => {
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
