import { pino, type DestinationStream } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config';
import { loggerOptions } from './log-redaction';

/**
 * The process's pino logger, shared by the API (Fastify's `loggerInstance`), the queue workers and the
 * jobs, so a worker process logs the same structured JSON as the API — with the same redaction
 * (lib/log-redaction.ts: no SQL parameters, hashes, tokens or signed URLs, ever).
 * @param opts.stream destination (default stdout; tests pass an in-memory stream)
 */
export function createLogger(config: Pick<AppConfig, 'logLevel'>, opts: { stream?: DestinationStream; base?: Record<string, unknown> } = {}): FastifyBaseLogger {
  const options = { ...loggerOptions({ level: config.logLevel }), base: { pid: process.pid, ...opts.base } };
  return opts.stream ? pino(options, opts.stream) : pino(options);
}
