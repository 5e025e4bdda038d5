import { z } from 'zod';
import { AUTH_LIMITS, PLANS } from './constants';
import { safeText } from './text';

/** The signed-in user as the page sees it (spec 000 §3, 001 §3). Dates are ISO 8601 strings or null. */
export const UserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  nickname: z.string(),
  plan: z.enum(PLANS),
  /** One-time + bonus + subscription credits. */
  credits: z.number().int(),
  /** Alias of credits kept for pages written against `balance`. */
  balance: z.number().int(),
  one_time_credits: z.number().int(),
  subscription_credits: z.number().int(),
  bonus_credits: z.number().int(),
  /** Credits a refund could not take back (already spent); the next grants settle it first (decision 012). */
  credit_debt: z.number().int(),
  cancelled_at: z.string().nullable(),
  subscription_end_date: z.string().nullable(),
  next_renewal_date: z.string().nullable(),
  subscriptionId: z.string().nullable(),
  isAdmin: z.boolean(),
  /** The e-mail address has been verified (decision 020); the welcome credits wait for it. Optional for older clients. */
  email_verified: z.boolean().optional(),
});
export type User = z.infer<typeof UserSchema>;

const email = safeText().trim().min(1).max(AUTH_LIMITS.emailMax).email();
/** Sign-up's password rule, shared by sign-up and password reset. */
export const PasswordSchema = safeText().min(AUTH_LIMITS.passwordMin).max(AUTH_LIMITS.passwordMax);

export const RegisterRequestSchema = z.object({
  name: safeText().trim().min(1).max(AUTH_LIMITS.nameMax),
  email,
  password: PasswordSchema,
});
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

/** PATCH /api/users/me (issue 10): the nickname, under sign-up's rules for the name. */
export const UpdateProfileRequestSchema = z.object({ nickname: safeText().trim().min(1).max(AUTH_LIMITS.nameMax) }).strict();
export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequestSchema>;

/**
 * POST /api/auth/register's answer (spec 000 §7: "a success status leads to login; body not shown"):
 * the same for a new address and for one that already has an account (decision 031) — the new address
 * gets a verification link, the owner of a taken one a mail saying someone tried to sign up with it.
 */
export const RegisterResponseSchema = z.object({ success: z.literal(true) });
export type RegisterResponse = z.infer<typeof RegisterResponseSchema>;

export const LoginRequestSchema = z.object({
  email,
  password: safeText().min(1).max(AUTH_LIMITS.passwordMax),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** Login answers the user itself: `{id,email,nickname,credits,…}` (spec 000 §7). */
export const LoginResponseSchema = UserSchema;
export type LoginResponse = User;

export const AuthCheckResponseSchema = z.object({
  isAuthenticated: z.boolean(),
  user: UserSchema.nullable(),
});
export type AuthCheckResponse = z.infer<typeof AuthCheckResponseSchema>;

export const LogoutResponseSchema = z.object({ success: z.literal(true) });

export const FeatureFlagsResponseSchema = z.object({
  imageGenerationEnabled: z.boolean(),
  /** False when the payments provider is not configured: the pricing page says buying is off. */
  paymentsEnabled: z.boolean(),
  /** Maintenance is on: the tools' write calls answer 503 MAINTENANCE (the page may say so up front). */
  maintenance: z.boolean(),
});
export type FeatureFlagsResponse = z.infer<typeof FeatureFlagsResponseSchema>;

/** A link token as mailed (base64url, bounded): verification, reset, undo. */
const token = z.string().min(16).max(200).regex(/^[A-Za-z0-9_.-]+$/);

/** POST /api/auth/verify-email (decision 020). */
export const VerifyEmailRequestSchema = z.object({ token }).strict();
export type VerifyEmailRequest = z.infer<typeof VerifyEmailRequestSchema>;
export const VerifyEmailResponseSchema = z.object({
  success: z.literal(true),
  /** Welcome credits granted by this verification (0 when this address had them before). */
  welcomeCredits: z.number().int(),
});
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponseSchema>;

/** POST /api/auth/resend-verification: `alreadyVerified` when there is nothing to send. */
export const ResendVerificationResponseSchema = z.object({ success: z.literal(true), alreadyVerified: z.boolean() });
export type ResendVerificationResponse = z.infer<typeof ResendVerificationResponseSchema>;

/** POST /api/auth/forgot-password: always the same answer (no account enumeration). */
export const ForgotPasswordRequestSchema = z.object({ email }).strict();
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequestSchema>;
export const SuccessResponseSchema = z.object({ success: z.literal(true) });

/** POST /api/auth/reset-password: the mailed token and a new password under sign-up's rule. */
export const ResetPasswordRequestSchema = z.object({ token, password: PasswordSchema }).strict();
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequestSchema>;

/** POST /api/account/delete (002 §9): the password; a social-only account sends none (fresh social sign-in instead). */
export const DeleteAccountRequestSchema = z.object({ password: safeText().max(AUTH_LIMITS.passwordMax).optional() }).strict();
export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequestSchema>;
export const DeleteAccountResponseSchema = z.object({
  success: z.literal(true),
  /** When the account is deleted for good (ISO 8601). */
  deletionDueAt: z.string(),
  /** A subscription was cancelled at the provider as part of the request. */
  subscriptionCancelled: z.boolean(),
});
export type DeleteAccountResponse = z.infer<typeof DeleteAccountResponseSchema>;

/** Details of the ACCOUNT_DELETION_PENDING error answered by a sign-in during the grace period. */
export const DeletionPendingDetailsSchema = z.object({ undoToken: z.string(), deletionDueAt: z.string() });
export type DeletionPendingDetails = z.infer<typeof DeletionPendingDetailsSchema>;

/** POST /api/auth/undo-deletion: the undo token from the sign-in answer; signs the user in. */
export const UndoDeletionRequestSchema = z.object({ token }).strict();
export type UndoDeletionRequest = z.infer<typeof UndoDeletionRequestSchema>;
