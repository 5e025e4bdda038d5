import { JobEventSchema, type JobEvent } from '@dewy/contracts';

/** A job event as received, with its arrival time (ms since epoch). */
export interface ReceivedEvent {
  event: JobEvent;
  at: number;
}

/**
 * Opens `GET /api/jobs/events` over real HTTP (as a browser's EventSource would) and collects the
 * `event: job` messages. `waitFor` resolves with the first received event matching `pred`.
 */
export async function openJobEvents(baseUrl: string, cookie: string) {
  const ac = new AbortController();
  const res = await fetch(`${baseUrl}/api/jobs/events`, { headers: { cookie, accept: 'text/event-stream' }, signal: ac.signal });
  const received: ReceivedEvent[] = [];
  const waiters = new Set<() => void>();
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (!block.split('\n').includes('event: job') || !data) continue;
          received.push({ event: JobEventSchema.parse(JSON.parse(data)), at: Date.now() });
          for (const w of waiters) w();
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    received,
    waitFor(pred: (e: JobEvent) => boolean, timeoutMs = 20_000): Promise<ReceivedEvent> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = received.find((r) => pred(r.event));
          if (!hit) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hit);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching job event within ${timeoutMs} ms; got ${JSON.stringify(received.map((r) => r.event))}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    async close() {
      ac.abort();
      await pump;
    },
  };
}
