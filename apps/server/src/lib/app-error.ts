import { ERROR_HTTP_STATUS, type ErrorCode } from '@dewy/contracts';

/**
 * The one error type of the server. Thrown anywhere; the error handler (lib/error-handler.ts) turns it
 * into `{success:false, code, error, message}` with the HTTP status of `ERROR_HTTP_STATUS[code]` and the
 * catalogue message in the caller's language (contracts/messages.ts). `opts.message` is a detail for
 * the logs, never shown to the customer.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(code: ErrorCode, opts: { message?: string; details?: unknown; cause?: unknown } = {}) {
    super(opts.message ?? code, { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = opts.details;
  }

  get status(): number {
    return ERROR_HTTP_STATUS[this.code];
  }
}

/** True when `e` is an AppError with the given code. */
export function isAppError(e: unknown, code?: ErrorCode): e is AppError {
  return e instanceof AppError && (code === undefined || e.code === code);
}
