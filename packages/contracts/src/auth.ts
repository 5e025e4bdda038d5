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
});
export type User = z.infer<typeof UserSchema>;

const email = safeText().trim().min(1).max(AUTH_LIMITS.emailMax).email();

export const RegisterRequestSchema = z.object({
  name: safeText().trim().min(1).max(AUTH_LIMITS.nameMax),
  email,
  password: safeText().min(AUTH_LIMITS.passwordMin).max(AUTH_LIMITS.passwordMax),
});
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

/** PATCH /api/users/me (issue 10): the nickname, under sign-up's rules for the name. */
export const UpdateProfileRequestSchema = z.object({ nickname: safeText().trim().min(1).max(AUTH_LIMITS.nameMax) }).strict();
export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequestSchema>;

export const RegisterResponseSchema = z.object({ success: z.literal(true), user: UserSchema });
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
