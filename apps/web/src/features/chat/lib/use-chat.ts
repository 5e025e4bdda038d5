import { useCallback, useEffect, useRef, useState } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatMessage } from '@dewy/contracts';
import { ApiError } from '../../../lib/api-client';
import { fetchChargeEnabled, fetchMessages, fetchThreads, sendChatStreaming } from '../api/chat-api';

const THREADS_KEY = ['ai', 'threads'] as const;

/** The caller's chat threads, 50 per page with "load more" (002 §7, §9). */
export function useThreads(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: THREADS_KEY,
    queryFn: ({ pageParam }) => fetchThreads(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}

/** Whether a send costs credits now, and whether a model is configured at all. */
export function useChargeEnabled(enabled: boolean) {
  return useQuery({ queryKey: ['ai', 'charge-enabled'], queryFn: fetchChargeEnabled, enabled, staleTime: 60_000 });
}

/** A message on the page: stored ones, plus the pending user message and the answer streaming in. */
export interface ShownMessage extends ChatMessage {
  /** A local preview URL of an attached image before the server stored it. */
  localImage?: string;
  streaming?: boolean;
}

export interface SendOutcome {
  ok: boolean;
  /** The error to show (already in the user's language), when not ok and not stopped. */
  error?: ApiError | Error;
  stopped?: boolean;
  threadId?: string;
}

/**
 * One conversation: its messages (100 per page, older ones on demand) and the streamed send with a stop.
 * `threadId` null is a new conversation; the server's thread id comes back from the first send.
 */
export function useConversation(threadId: string | null) {
  const [messages, setMessages] = useState<ShownMessage[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<Error | null>(null);
  const [sending, setSending] = useState(false);
  const controller = useRef<AbortController | null>(null);
  // A send that created the thread keeps its messages when the page switches to that thread id.
  const adopted = useRef<string | null>(null);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!threadId) {
      setMessages([]);
      setHasMore(false);
      return;
    }
    if (adopted.current === threadId) {
      adopted.current = null;
      return;
    }
    let live = true;
    setLoading(true);
    setLoadError(null);
    setMessages([]);
    fetchMessages(threadId)
      .then((r) => {
        if (!live) return;
        setMessages(r.messages);
        setHasMore(r.hasMore);
      })
      .catch((err: Error) => live && setLoadError(err))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [threadId]);

  const loadEarlier = useCallback(async () => {
    const first = messages.find((m) => m.id > 0);
    if (!threadId || !first) return;
    const r = await fetchMessages(threadId, first.id);
    setMessages((prev) => [...r.messages, ...prev]);
    setHasMore(r.hasMore);
  }, [threadId, messages]);

  const send = useCallback(
    async (text: string, image: File | null): Promise<SendOutcome> => {
      const form = new FormData();
      form.append('text', text);
      if (threadId) form.append('threadId', threadId);
      if (image) form.append('image', image);
      const localImage = image ? URL.createObjectURL(image) : undefined;
      const pendingUser: ShownMessage = { id: -1, role: 'user', text, image_url: null, created_at: new Date().toISOString(), localImage };
      const answer: ShownMessage = { id: -2, role: 'assistant', text: '', image_url: null, created_at: new Date().toISOString(), streaming: true };
      setMessages((prev) => [...prev, pendingUser, answer]);
      setSending(true);
      const ctl = new AbortController();
      controller.current = ctl;
      let started = false;
      let newThread: string | undefined;
      const patch = (id: number, f: (m: ShownMessage) => ShownMessage) => setMessages((prev) => prev.map((m) => (m.id === id ? f(m) : m)));
      try {
        const done = await sendChatStreaming(
          form,
          {
            onStart: (e) => {
              started = true;
              newThread = e.threadId;
              patch(-1, () => ({ ...e.userMessage, localImage }));
            },
            onDelta: (d) => patch(-2, (m) => ({ ...m, text: m.text + d })),
          },
          ctl.signal,
        );
        patch(-2, () => done.message);
        if (!threadId) adopted.current = done.threadId;
        return { ok: true, threadId: done.threadId };
      } catch (err) {
        const stopped = err instanceof DOMException && err.name === 'AbortError';
        // The server keeps what was written before a stop (and charges it); nothing written = nothing kept.
        setMessages((prev) =>
          prev
            .filter((m) => !(m.id === -2 && (!stopped || !m.text.trim())))
            .filter((m) => started || m.id !== -1)
            .map((m) => (m.id === -2 ? { ...m, id: -3, streaming: false } : m)),
        );
        if (started && newThread && !threadId) adopted.current = newThread;
        return { ok: false, stopped, error: stopped ? undefined : (err as Error), threadId: started ? newThread : undefined };
      } finally {
        controller.current = null;
        setSending(false);
        void queryClient.invalidateQueries({ queryKey: THREADS_KEY });
      }
    },
    [threadId, queryClient],
  );

  const stop = useCallback(() => controller.current?.abort(), []);

  return { messages, hasMore, loading, loadError, sending, send, stop, loadEarlier };
}

export { THREADS_KEY };
