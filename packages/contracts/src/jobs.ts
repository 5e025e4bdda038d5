import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './errors';
import { SEEDREAM_ERROR_CODES, type SeedreamErrorCode } from './image-edit';
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

/**
 * Failure reasons of the job kernel itself, when no tool's own code applies (decision 034):
 * - `JOB_FAILED`: the tool's run failed without a typed reason (its detail is in the row's `error`);
 * - `JOB_TIMEOUT`: the run went past the job timeout (JOB_TIMEOUT_SECONDS) and was aborted;
 * - `JOB_LOST`: its worker stopped (crash, lost heartbeat, hard shutdown) or its queue job vanished;
 *   the job was failed by recovery or at shutdown;
 * - `JOB_CANCELLED`: its owner cancelled it before a worker started it (decision 040); refunded at once.
 * None is an {@link ErrorCode}: `/api/image/status` answers them as `JOB_FAILED`, as it always has.
 */
export const KERNEL_JOB_ERROR_CODES = ['JOB_FAILED', 'JOB_TIMEOUT', 'JOB_LOST', 'JOB_CANCELLED'] as const;
export type KernelJobErrorCode = (typeof KERNEL_JOB_ERROR_CODES)[number];

/**
 * Why a paid job failed, as its row stores it (`jobs.error_code`, decision 034): one of our error codes
 * (a tool's AppError, e.g. GENERATION_SAFETY_BLOCKED), an image-edit vendor code the 002 §8 dialogs
 * explain (e.g. InvalidParameter.OversizeImage), or a kernel reason ({@link KERNEL_JOB_ERROR_CODES}).
 * The presenters map it to each spec's wire field (`/api/image/status` `error`, `/api/seedream/*`
 * `error.code` / `error_code`); the row's `error` column keeps only a free-text detail.
 */
export type JobErrorCode = ErrorCode | SeedreamErrorCode | KernelJobErrorCode;

/** Every {@link JobErrorCode}. */
export const JOB_ERROR_CODES: readonly JobErrorCode[] = [...new Set<JobErrorCode>([...ERROR_CODES, ...SEEDREAM_ERROR_CODES, ...KERNEL_JOB_ERROR_CODES])];

/** True when `code` is one of our {@link ErrorCode}s (not a vendor or kernel job code). */
export function isErrorCode(code: string | null | undefined): code is ErrorCode {
  return typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code);
}

/** True when `code` is a {@link JobErrorCode}. */
export function isJobErrorCode(code: string | null | undefined): code is JobErrorCode {
  return typeof code === 'string' && (JOB_ERROR_CODES as readonly string[]).includes(code);
}
