import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { JOB_EVENTS, JOB_EVENTS_PATH, type JobEvent } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { userOf } from '../../lib/request-user';

/**
 * `GET /api/jobs/events` (GUIDE §3): a Server-Sent Events stream of the caller's own jobs — progress
 * (stage, fraction) and final status — pushed from whichever process runs them (PostgreSQL
 * LISTEN/NOTIFY; PGlite in-process). Messages are `event: job` + `data: <JobEvent JSON>`; a `: ping`
 * comment every 15 s keeps proxies from closing an idle stream; `retry:` tells EventSource how soon
 * to reconnect. The page keeps the spec's polling as the fallback.
 */
export function jobEventsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const open = new Set<() => void>();
    // A shutdown ends every stream first, so the server can close (EventSource reconnects elsewhere).
    app.addHook('preClose', async () => {
      for (const end of open) end();
    });
    app.get(JOB_EVENTS_PATH, { config: { access: 'user' }, schema: { tags: ['images'], hide: false } }, async (req, reply) => {
      const user = userOf(req);
      const raw = reply.raw;
      const send = (chunk: string) => {
        if (!raw.writableEnded) raw.write(chunk);
      };
      const unsubscribe = await ctx.events.subscribe(user.id, (event: JobEvent) => {
        send(`event: ${JOB_EVENTS.eventName}\ndata: ${JSON.stringify(event)}\n\n`);
      });
      reply.hijack();
      // Headers set by hooks (request id, security headers) travel with the hijacked response.
      const headers = { ...reply.getHeaders() } as Record<string, string | string[] | number>;
      raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      send(`retry: ${JOB_EVENTS.retryMs}\n: connected\n\n`);
      const ping = setInterval(() => send(': ping\n\n'), JOB_EVENTS.heartbeatMs);
      const close = () => {
        clearInterval(ping);
        unsubscribe();
        open.delete(end);
      };
      const end = () => {
        close();
        raw.end();
      };
      open.add(end);
      req.raw.on('close', close);
    });
  };
}
