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
  'UPLOAD_STORAGE_FULL',
  'EMAIL_NOT_VERIFIED',
  'NSFW_CONTENT_DETECTED',
  'MAINTENANCE',
  'PAYLOAD_TOO_LARGE',
  'NOT_CONFIGURED',
  'IDEMPOTENCY_KEY_REUSED',
  'REQUEST_IN_PROGRESS',
  'API_KEY_LIMIT_REACHED',
  'API_KEY_INVALID',
  'JOB_NOT_CANCELLABLE',
  'JOB_IN_PROGRESS',
  'NO_WRITE_PERMISSION',
  'NOTICE_INCOMPLETE',
  'MASK_REQUIRED',
  'MASK_EMPTY',
  'IMAGE_EDIT_FILE_TOO_LARGE',
  'IMAGE_EDIT_TOO_SMALL',
  'PAYMENTS_NOT_CONFIGURED',
  'PAYMENT_PROVIDER_ERROR',
  'WEBHOOK_SIGNATURE_INVALID',
  'ALREADY_SUBSCRIBED',
  'CHECKOUT_IN_PROGRESS',
  'CURRENCY_NOT_AVAILABLE',
  'NO_SUBSCRIPTION',
  'SAME_PLAN',
  'NO_SCHEDULED_CHANGE',
  'SUBSCRIPTION_CANCEL_SCHEDULED',
  'SUBSCRIPTION_ENDED',
  'SOCIAL_AUTH_FAILED',
  'SOCIAL_CANCELLED',
  'OAUTH_STATE_MISMATCH',
  'SOCIAL_EMAIL_UNVERIFIED',
  'SOCIAL_ACCOUNT_EXISTS',
  'IDENTITY_IN_USE',
  'SOCIAL_REAUTH_MISMATCH',
  'LAST_SIGN_IN_METHOD',
  'NSFW_PROMPT_BLOCKED',
  'GENERATION_INPUT_REQUIRED',
  'GENERATION_IMAGE_TYPE',
  'GENERATION_FAILED',
  'GENERATION_SAFETY_BLOCKED',
  'VENDOR_AUTH_FAILED',
  'VENDOR_BUSY',
  'VENDOR_UNAVAILABLE',
  'TOKEN_INVALID',
  'TOKEN_EXPIRED',
  'TOKEN_USED',
  'ACCOUNT_DELETION_PENDING',
  'PASSWORD_REQUIRED',
  'WRONG_PASSWORD',
  'REAUTHENTICATION_REQUIRED',
  'AI_EMPTY_MESSAGE',
  'AI_PROMPT_EMPTY',
  'AI_REFUSED',
  'AI_UNAVAILABLE',
  'AI_TIMEOUT',
  'NOTHING_TO_CHARGE',
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
  /**
   * The caller's stored uploads (live, not yet purged by the 30-day retention) hold the per-user count or
   * byte quota (issue 21 point 7, decision 032). Not 429: it clears only as old uploads expire, not by
   * retrying; details carry the caller's usage and both caps.
   */
  UPLOAD_STORAGE_FULL: 403,
  /**
   * A route that spends the operator's money or disk (vendor calls, uploads: `access: 'verified'`) called by
   * an account whose e-mail is not verified yet (issue 21 point 7, decision 032). Not 401: the session is fine.
   */
  EMAIL_NOT_VERIFIED: 403,
  NSFW_CONTENT_DETECTED: 400,
  MAINTENANCE: 503,
  PAYLOAD_TOO_LARGE: 413,
  NOT_CONFIGURED: 503,
  /** As Stripe: the same Idempotency-Key with another request body. */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** The same Idempotency-Key while its first request is still running (an inline metered call, decision 036): retry shortly. */
  REQUEST_IN_PROGRESS: 409,
  API_KEY_LIMIT_REACHED: 409,
  API_KEY_INVALID: 401,
  JOB_NOT_CANCELLABLE: 409,
  JOB_IN_PROGRESS: 409,
  /** A notice write by anyone but the administrator (002 §5). */
  NO_WRITE_PERMISSION: 403,
  /** A notice without a title or content (002 §5). */
  NOTICE_INCOMPLETE: 400,
  /** Face edit without a saved mask (001 §5). */
  MASK_REQUIRED: 400,
  /** A mask with nothing painted (001 §5). */
  MASK_EMPTY: 400,
  /** An image-edit reference over 9 MB (002 §5). */
  IMAGE_EDIT_FILE_TOO_LARGE: 413,
  /** An image-edit reference under 921600 pixels (002 §5); details carry its width and height. */
  IMAGE_EDIT_TOO_SMALL: 400,
  /** PAYMENTS_PROVIDER names a provider whose keys are missing: nothing can be bought or charged. */
  PAYMENTS_NOT_CONFIGURED: 503,
  /** The payment provider failed or answered something we could not use. */
  PAYMENT_PROVIDER_ERROR: 502,
  WEBHOOK_SIGNATURE_INVALID: 401,
  ALREADY_SUBSCRIBED: 409,
  /** A plan checkout of the user is still open (another plan, or still being created): finish or leave it first (decision 029). */
  CHECKOUT_IN_PROGRESS: 409,
  /** A checkout asked for a currency the payment provider in use does not take (issue 25: Lemon Squeezy bills in dollars only). */
  CURRENCY_NOT_AVAILABLE: 400,
  NO_SUBSCRIPTION: 409,
  SAME_PLAN: 409,
  /** POST /api/payment/withdraw-downgrade while no downgrade is scheduled (decision 030). */
  NO_SCHEDULED_CHANGE: 409,
  /** Spec 000 §5: plan change is blocked while a cancellation is in force; resume first. */
  SUBSCRIPTION_CANCEL_SCHEDULED: 409,
  SUBSCRIPTION_ENDED: 409,
  /** Social sign-in (decision 021): the provider refused the code or token, or its answer was unusable. */
  SOCIAL_AUTH_FAILED: 401,
  /** The user cancelled at the provider (`error=access_denied`). */
  SOCIAL_CANCELLED: 400,
  /** The callback's `state` does not match the signed cookie (or the cookie is missing or expired). */
  OAUTH_STATE_MISMATCH: 400,
  /** The provider does not vouch for the e-mail: it never creates, matches or links an account. */
  SOCIAL_EMAIL_UNVERIFIED: 403,
  /** A new identity whose verified e-mail belongs to an account: never linked silently (sign in, then link). */
  SOCIAL_ACCOUNT_EXISTS: 409,
  /** The identity is linked to another account, or the account already has one of this provider. */
  IDENTITY_IN_USE: 409,
  /** Re-authentication with an identity that is not the signed-in account's. */
  SOCIAL_REAUTH_MISMATCH: 403,
  /** Unlinking would leave the account with no way to sign in. */
  LAST_SIGN_IN_METHOD: 409,
  /** 002 §5/§8: the prompt holds a banned keyword. */
  NSFW_PROMPT_BLOCKED: 400,
  /** 002 §5: generation needs a prompt or a reference image. */
  GENERATION_INPUT_REQUIRED: 400,
  /** 002 §5: the reference must be jpg, jpeg, png or webp. */
  GENERATION_IMAGE_TYPE: 400,
  /** Job failure reasons of a vendor-run generation (stored on the failed row, shown by the status call). */
  GENERATION_FAILED: 502,
  GENERATION_SAFETY_BLOCKED: 400,
  VENDOR_AUTH_FAILED: 502,
  VENDOR_BUSY: 503,
  VENDOR_UNAVAILABLE: 503,
  /** A verification, reset or undo link that is forged, unknown or for another purpose (decision 020). */
  TOKEN_INVALID: 400,
  /** A link past its expiry (verification 48 h, reset 30 min). */
  TOKEN_EXPIRED: 410,
  /** A single-use link already used. */
  TOKEN_USED: 409,
  /** Sign-in to an account whose deletion is pending (002 §9): details carry the undo token. Not 401: no session-expired modal. */
  ACCOUNT_DELETION_PENDING: 403,
  /** Account deletion without the password (accounts that have one). */
  PASSWORD_REQUIRED: 400,
  /** A wrong password on a signed-in form (account deletion). Not 401: the session is fine. */
  WRONG_PASSWORD: 400,
  /** Account deletion by a social-only account without a fresh social sign-in. */
  REAUTHENTICATION_REQUIRED: 403,
  /** A chat send with neither text nor image (002 §5). */
  AI_EMPTY_MESSAGE: 400,
  /** A rewrite without an instruction (002 §5). */
  AI_PROMPT_EMPTY: 400,
  /** The language model refused (moderation, `finish_reason: content_filter`); the charge is refunded. */
  AI_REFUSED: 422,
  /** The language model failed or answered something unusable; the charge is refunded. */
  AI_UNAVAILABLE: 502,
  /** The language model did not answer in time; the charge is refunded. */
  AI_TIMEOUT: 504,
  /** POST /api/credit/use with no successful rewrite to confirm (it never charges on its own, decision 022). */
  NOTHING_TO_CHARGE: 409,
  INTERNAL: 500,
};

/** Languages the product speaks; `ko` is the default path, `en` lives under /en. */
export type Locale = 'ko' | 'en';

/**
 * Error body every failing API call answers with: `{ error, message, code }`.
 * `error` repeats the message so that pages written against the spec's `error` field work; `code`
 * is the machine-readable code above. Messages are in the caller's language (Accept-Language / cookie).
 */
/**
 * One entry of a VALIDATION_FAILED answer's `details` when a request schema refused the input (issue 17):
 * `field` is the dotted path (`password`, `input.prompt`, '' for the body itself), `rule` the zod issue
 * code (`too_small`, `too_big`, `invalid_format`, `invalid_type`, `custom`, …), `minimum`/`maximum` the
 * broken length or size bound, `format` the expected string format (`email`), `message` zod's English text.
 */
export interface ValidationIssueDetail {
  field: string;
  rule: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  message: string;
}

/**
 * An error answer of `/api` and `/api/v1`: `code` (machine), `message` (the catalogue text in the
 * caller's language) and `error`, which carries what the spec shows there (001 §8, issue 28 point 9):
 * the code itself for the codes of {@link SPEC_ERROR_VALUES}, else the localized text. A 503 for
 * maintenance also carries `maintenance: true` (001 §7 upload-s3 reads it).
 */
export interface ApiErrorBody {
  success: false;
  code: ErrorCode;
  error: string;
  message: string;
  maintenance?: true;
  details?: unknown;
}

/**
 * The `error` value the spec shows on the wire for a code (001 §8): the upload's 400
 * `NSFW_CONTENT_DETECTED`, the 503 `MAINTENANCE`, face edit's 401 `AUTH_REQUIRED`. Every other code
 * carries its localized text in `error`, as the spec shows for "크레딧이 부족합니다.".
 */
export const SPEC_ERROR_VALUES: Partial<Record<ErrorCode, string>> = {
  NSFW_CONTENT_DETECTED: 'NSFW_CONTENT_DETECTED',
  MAINTENANCE: 'MAINTENANCE',
  UNAUTHENTICATED: 'AUTH_REQUIRED',
};

/**
 * The one error body (see {@link ApiErrorBody}) for `code` with its localized `message`.
 * @param details what names the failing field or limit (VALIDATION_FAILED's issues), when there is one
 */
export function apiErrorBody(code: ErrorCode, message: string, details?: unknown): ApiErrorBody {
  return {
    success: false,
    code,
    error: SPEC_ERROR_VALUES[code] ?? message,
    message,
    ...(code === 'MAINTENANCE' ? { maintenance: true as const } : {}),
    ...(details !== undefined ? { details } : {}),
  };
}
