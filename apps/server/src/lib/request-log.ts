import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * The access log: ONE line per request, written when it completes (`request completed` at info, or
 * `request errored` at error), holding the request (method, URL with secrets redacted, host, client
 * address: lib/log-redaction.ts `serializeRequest`), the status and the response time in ms. Fastify's
 * default writes a second line, `incoming request`, when each request arrives; that line is kept at
 * debug level only (LOG_LEVEL=debug shows it, to find a request that never completes). Each log line
 * costs a JSON serialisation, the redaction pass and a write: on the session path (decision 026) the
 * second line was about 7 % of the API process's CPU.
 */
export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else if (isQuietPoll(request, reply.statusCode)) reply.log.debug({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** Routes every open tab polls (000 §7: the session check on each page load and every 120 s). */
const POLLED_ROUTES = new Set(['/api/auth/check']);

/**
 * A successful answer of a polled route is logged at debug, like a load balancer's health check: it is
 * most of the API's requests and says nothing an operator reads, and its line (JSON, redaction, write)
 * was a quarter of the session path's CPU (decision 026). Its failures (4xx, 5xx) stay at info / error.
 */
export function isQuietPoll(request: Pick<FastifyRequest, 'method' | 'routeOptions'>, statusCode: number): boolean {
  return request.method === 'GET' && statusCode < 400 && POLLED_ROUTES.has(request.routeOptions.url ?? '');
}
