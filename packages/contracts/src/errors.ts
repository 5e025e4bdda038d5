/**
 * Error codes shared by the server and the web app. The server maps each code to an HTTP status in
 * one place (`ERROR_HTTP_STATUS`); the page maps codes to catalogue messages (spec 000 §8, 001 §8).
 */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'UNAUTHENTICATED',
  'SESSION_EXPIRED',
  'FORBIDDEN',
  'FOREIGN_ORIGIN',
  'NOT_FOUND',
  'INVALID_CREDENTIALS',
  'EMAIL_TAKEN',
  'RATE_LIMITED',
  'INSUFFICIENT_CREDITS',
  'UPSCALE_BLOCKED',
  'UNSUPPORTED_IMAGE_TYPE',
  'IMAGE_TOO_LARGE',
  'IMAGE_TOO_MANY_PIXELS',
  'IMAGE_CORRUPT',
  'CHECKSUM_MISMATCH',
  'UPLOAD_EXPIRED',
  'UPLOAD_QUOTA_EXCEEDED',
  'NSFW_CONTENT_DETECTED',
  'MAINTENANCE',
  'PAYLOAD_TOO_LARGE',
  'NOT_CONFIGURED',
  'IDEMPOTENCY_KEY_REUSED',
  'NO_WRITE_PERMISSION',
  'NOTICE_INCOMPLETE',
  'MASK_REQUIRED',
  'MASK_EMPTY',
  'PAYMENTS_NOT_CONFIGURED',
  'PAYMENT_PROVIDER_ERROR',
  'WEBHOOK_SIGNATURE_INVALID',
  'ALREADY_SUBSCRIBED',
  'NO_SUBSCRIPTION',
  'SAME_PLAN',
  'SUBSCRIPTION_CANCEL_SCHEDULED',
  'SUBSCRIPTION_ENDED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one mapping from error code to HTTP status. */
export const ERROR_HTTP_STATUS: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  UNAUTHENTICATED: 401,
  SESSION_EXPIRED: 401,
  FORBIDDEN: 403,
  FOREIGN_ORIGIN: 403,
  NOT_FOUND: 404,
  INVALID_CREDENTIALS: 401,
  EMAIL_TAKEN: 409,
  RATE_LIMITED: 429,
  INSUFFICIENT_CREDITS: 400,
  UPSCALE_BLOCKED: 400,
  UNSUPPORTED_IMAGE_TYPE: 400,
  IMAGE_TOO_LARGE: 413,
  IMAGE_TOO_MANY_PIXELS: 400,
  IMAGE_CORRUPT: 400,
  CHECKSUM_MISMATCH: 400,
  UPLOAD_EXPIRED: 403,
  // A per-user limit that clears by itself (pending uploads confirm or expire): retry later, like 429.
  UPLOAD_QUOTA_EXCEEDED: 429,
  NSFW_CONTENT_DETECTED: 400,
  MAINTENANCE: 503,
  PAYLOAD_TOO_LARGE: 413,
  NOT_CONFIGURED: 503,
  /** As Stripe: the same Idempotency-Key with another request body. */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** A notice write by anyone but the administrator (002 §5). */
  NO_WRITE_PERMISSION: 403,
  /** A notice without a title or content (002 §5). */
  NOTICE_INCOMPLETE: 400,
  /** Face edit without a saved mask (001 §5). */
  MASK_REQUIRED: 400,
  /** A mask with nothing painted (001 §5). */
  MASK_EMPTY: 400,
  /** PAYMENTS_PROVIDER names a provider whose keys are missing: nothing can be bought or charged. */
  PAYMENTS_NOT_CONFIGURED: 503,
  /** The payment provider failed or answered something we could not use. */
  PAYMENT_PROVIDER_ERROR: 502,
  WEBHOOK_SIGNATURE_INVALID: 401,
  ALREADY_SUBSCRIBED: 409,
  NO_SUBSCRIPTION: 409,
  SAME_PLAN: 409,
  /** Spec 000 §5: plan change is blocked while a cancellation is in force; resume first. */
  SUBSCRIPTION_CANCEL_SCHEDULED: 409,
  SUBSCRIPTION_ENDED: 409,
  INTERNAL: 500,
};

/** Languages the product speaks; `ko` is the default path, `en` lives under /en. */
export type Locale = 'ko' | 'en';

/**
 * Error body every failing API call answers with: `{ error, message, code }`.
 * `error` repeats the message so that pages written against the spec's `error` field work; `code`
 * is the machine-readable code above. Messages are in the caller's language (Accept-Language / cookie).
 */
export interface ApiErrorBody {
  success: false;
  code: ErrorCode;
  error: string;
  message: string;
  details?: unknown;
}
