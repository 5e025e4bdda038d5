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
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
