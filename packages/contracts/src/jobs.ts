import { z } from 'zod';
import { HISTORY_SOURCES, JOB_STATUSES } from './images';

/**
 * Push of job progress and results to the page (GUIDE §3): `GET /api/jobs/events` is a Server-Sent
 * Events stream, session-authenticated, carrying only the caller's own jobs. Each message is
 * `event: job` with `data:` one JSON object of `JobEventSchema`; a comment line (`: ping`) is sent every
 * `JOB_EVENTS.heartbeatMs` so proxies keep the connection open. The spec's polling of
 * `/api/image/status/{jobId}` stays the fallback: a page that loses the stream keeps polling.
 *
 * A `status` event with `completed` says the result is stored; the page then reads its signed URLs
 * from `/api/image/status/{jobId}` (URLs are signed per request and never travel through the queue).
 */
export const JOB_EVENTS_PATH = '/api/jobs/events';
export const JOB_EVENTS = {
  /** SSE event name of every message. */
  eventName: 'job',
  /** Keep-alive comment interval (ms). */
  heartbeatMs: 15_000,
  /** `retry:` hint sent to EventSource for reconnects (ms). */
  retryMs: 3000,
} as const;

export const JobProgressEventSchema = z.object({
  type: z.literal('progress'),
  jobId: z.string(),
  source: z.enum(HISTORY_SOURCES),
  /** Engine stage, e.g. decode, faces, masks, retouch, super-resolution, encode. */
  stage: z.string(),
  /** Completion of the whole job, 0..1. */
  fraction: z.number().min(0).max(1),
});
export type JobProgressEvent = z.infer<typeof JobProgressEventSchema>;

export const JobStatusEventSchema = z.object({
  type: z.literal('status'),
  jobId: z.string(),
  source: z.enum(HISTORY_SOURCES),
  status: z.enum(JOB_STATUSES),
});
export type JobStatusEvent = z.infer<typeof JobStatusEventSchema>;

export const JobEventSchema = z.discriminatedUnion('type', [JobProgressEventSchema, JobStatusEventSchema]);
export type JobEvent = z.infer<typeof JobEventSchema>;
