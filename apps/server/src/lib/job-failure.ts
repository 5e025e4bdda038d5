import type { JobErrorCode } from '@dewy/contracts';
import { AppError } from './app-error';

/**
 * A paid job's failure with its typed reason (decision 034): the kernel stores `failureCode` in the
 * job's `error_code` and the message (a free-text detail for logs and, on image edit, the dialog's
 * vendor message) in `error`. Throw it from a tool's run, or from a provider whose errors carry a
 * reason the page explains (SeedreamError extends it); an AppError is read the same way by its `code`.
 */
export class JobFailure extends Error {
  readonly failureCode: JobErrorCode;

  constructor(code: JobErrorCode, detail: string, opts: { cause?: unknown } = {}) {
    super(detail, { cause: opts.cause });
    this.name = 'JobFailure';
    this.failureCode = code;
  }
}

/** What a failed job's row stores: its typed reason and a free-text detail (at most 500 characters). */
export interface StoredFailure {
  code: JobErrorCode;
  detail: string;
}

/**
 * The reason and detail a failed job stores for what its run threw (decision 034). When the job was
 * aborted (its timeout, a hard shutdown) with a JobFailure as the signal's reason, that reason wins over
 * whatever the run threw on the way out (an AbortError of a fetch, say). Else a JobFailure gives its
 * `failureCode`, an AppError its `code`, anything else `JOB_FAILED`; the detail is the error's message.
 * @param signal the job's abort signal
 */
export function failureOf(err: unknown, signal?: AbortSignal): StoredFailure {
  const reason: unknown = signal?.aborted ? signal.reason : undefined;
  const e = reason instanceof JobFailure ? reason : err;
  const detail = (e instanceof Error ? e.message : String(e)).slice(0, 500);
  if (e instanceof JobFailure) return { code: e.failureCode, detail };
  if (e instanceof AppError) return { code: e.code, detail };
  return { code: 'JOB_FAILED', detail };
}
