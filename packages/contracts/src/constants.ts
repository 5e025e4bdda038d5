/** Business constants of spec 000 §9 and 001 §9, shared by the server and the web app. */

export const PLANS = ['free', 'basic', 'deluxe', 'premium'] as const;
export type Plan = (typeof PLANS)[number];

/** Monthly subscription plans (USD / credits per month), spec 000 §3. */
export const SUBSCRIPTION_PLANS = {
  basic: { priceUsd: 9, credits: 4500 },
  deluxe: { priceUsd: 19, credits: 9500 },
  premium: { priceUsd: 29, credits: 14500 },
} as const;

/** One-time credit packs, spec 000 §3. */
export const CREDIT_PACKS = {
  package1: { name: 'Starter', priceUsd: 5, credits: 1500 },
  package2: { name: 'Basic', priceUsd: 10, credits: 3000 },
  package3: { name: 'Standard', priceUsd: 15, credits: 4800 },
  package4: { name: 'Premium', priceUsd: 20, credits: 6450 },
  package5: { name: 'Ultimate', priceUsd: 30, credits: 9750 },
} as const;

/** Session sync timing, spec 000 §4/§9 (ms). */
export const SESSION_SYNC = {
  debounceMs: 1000,
  minIntervalMs: 5000,
  periodicMs: 120_000,
} as const;

export const DROPDOWN_CLOSE_DELAY_MS = 160;
export const MOBILE_BREAKPOINT_PX = 700;
export const DEFAULT_CREDITS_DISPLAY = 1000;

/** Toast durations, spec 000 §9 (ms). */
export const TOAST = { successMs: 2000, errorMs: 4000, plainMs: 4000, maxKept: 20 } as const;

/** Upscale job polling schedule, spec 001 §4: 2, 4, 8 s, then random 10–15 s, until 10 minutes. */
export const UPSCALE_POLLING = {
  initialDelaysMs: [2000, 4000, 8000],
  randomMinMs: 10_000,
  randomMaxMs: 15_000,
  timeoutMs: 600_000,
} as const;

/** Upload limits enforced by the server (bytes, pixels). */
export const UPLOAD_LIMITS = {
  maxBytes: 25 * 1024 * 1024,
  /** Pixel cap checked from the header before any decoding (decompression bombs). */
  maxPixels: 50_000_000,
  /** Longest side accepted. */
  maxSide: 12_000,
  /** Presigned PUT URLs stay valid this long (s). */
  presignTtlSeconds: 900,
  /**
   * Past its URL's expiry, a presigned upload is kept this much longer (s) before housekeeping purges
   * it when unconfirmed: covers a PUT that started just before the expiry and clock skew with S3.
   */
  pendingGraceSeconds: 300,
  /**
   * Bytes one user may have announced in presigned uploads not yet confirmed (pending, or refused and
   * not yet purged): four maximal uploads. presign-upload refuses more with UPLOAD_QUOTA_EXCEEDED.
   */
  maxPendingBytesPerUser: 100 * 1024 * 1024,
  /** Presigned uploads one user may have not yet confirmed (bounds the rows tiny uploads could pile up). */
  maxPendingUploadsPerUser: 20,
  /**
   * Default per-user quota of stored uploads (issue 21 point 7, decision 032): live rows — pending,
   * confirmed or refused, not yet expired by the 30-day retention nor purged — of every kind (tool
   * originals, references, chat images, result copies). The server reads its caps from
   * UPLOAD_QUOTA_MAX_FILES / UPLOAD_QUOTA_MAX_BYTES (config.ts), which default to these. Past either cap
   * an upload is refused with UPLOAD_STORAGE_FULL before anything is stored.
   */
  defaultMaxStoredUploadsPerUser: 1000,
  /** Default byte cap of the stored-upload quota above: 5 GiB (200 maximal uploads). */
  defaultMaxStoredBytesPerUser: 5 * 1024 * 1024 * 1024,
  /** Signed image URLs handed to the page stay valid this long (s). */
  viewUrlTtlSeconds: 3600,
} as const;

export const ACCEPTED_IMAGE_MIME = ['image/jpeg', 'image/png'] as const;
export type AcceptedImageMime = (typeof ACCEPTED_IMAGE_MIME)[number];

/** Auth input caps (characters). The spec shows none; we cap to keep hashing and storage bounded. */
export const AUTH_LIMITS = {
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 128,
  nameMax: 50,
} as const;

/**
 * Account e-mails and deletion (issue 14, decision 020; 002 §9 for the 14-day grace). Times in ms.
 * Rate limits: hits per window (ms) per key.
 */
export const ACCOUNT_RULES = {
  verifyTokenTtlMs: 48 * 3600_000,
  resetTokenTtlMs: 30 * 60_000,
  /** 002 §9: account deletion has a 14-day undo window. */
  deletionGraceMs: 14 * 86_400_000,
  /** The undo token handed to a sign-in during the grace period. */
  undoTokenTtlMs: 10 * 60_000,
  /** A social-only account proves itself by a social sign-in this recent. */
  reauthFreshMs: 10 * 60_000,
  resendPerAccount: { max: 3, windowMs: 3600_000 },
  resendPerIp: { max: 10, windowMs: 3600_000 },
  resetPerAddress: { max: 3, windowMs: 3600_000 },
  resetPerIp: { max: 10, windowMs: 3600_000 },
  /** Wrong passwords on the deletion form, per account. */
  deletionAttempts: { max: 5, windowMs: 15 * 60_000 },
} as const;

/**
 * Renewal reminders (002 "Terms of service": "renewal reminders 7, 3 and 1 day before"; terms §7,
 * refund policy; decision 027): whole days before a subscription's renewal, largest first.
 */
export const RENEWAL_REMINDER_DAYS = [7, 3, 1] as const;

/**
 * Dormant accounts (002 "Terms of service": "dormant accounts 1 year"; terms §14; decision 027). Times
 * in ms. An account with no sign-in for `inactiveMs` becomes dormant, never sooner than `noticeMs`
 * after the notice mail, which goes out `noticeMs` before the year is up. `loginWriteMs`: a session in
 * use refreshes the account's last sign-in at most this often.
 */
export const DORMANCY_RULES = {
  inactiveMs: 365 * 86_400_000,
  noticeMs: 30 * 86_400_000,
  loginWriteMs: 86_400_000,
} as const;

/** A click on a history item takes effect after this quiet time (001 §9, 002 §9: 300 ms). */
export const HISTORY_CLICK_DEBOUNCE_MS = 300;
