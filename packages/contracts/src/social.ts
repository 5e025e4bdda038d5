import { z } from 'zod';
import type { ErrorCode } from './errors';
import { safeText } from './text';

/** Social sign-in providers (spec 000 §1, §7; decision 021). */
export const SOCIAL_PROVIDERS = ['google', 'naver', 'kakao'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];
export const SocialProviderSchema = z.enum(SOCIAL_PROVIDERS);

/** Upper bound of a Google ID token we accept (a real one is about 1–1.5 kB). */
export const GOOGLE_CREDENTIAL_MAX = 8192;

/** POST /api/auth/google (spec 000 §7): the Google Identity Services credential (an ID token). */
export const GoogleLoginRequestSchema = z.object({ credential: safeText().min(1).max(GOOGLE_CREDENTIAL_MAX) });
export type GoogleLoginRequest = z.infer<typeof GoogleLoginRequestSchema>;

/** What a signed-in user does with a provider: attach a new identity, or prove control again (re-authentication). */
export const SOCIAL_INTENTS = ['link', 'reauth'] as const;
export type SocialIntent = (typeof SOCIAL_INTENTS)[number];

/** POST /api/auth/google/link (signed in): link a Google identity, or re-authenticate with the linked one. */
export const GoogleLinkRequestSchema = GoogleLoginRequestSchema.extend({ intent: z.enum(SOCIAL_INTENTS).default('link') });
export type GoogleLinkRequest = z.infer<typeof GoogleLinkRequestSchema>;

/**
 * GET /api/auth/providers: which social sign-ins this server has configured. `google.clientId` is the
 * public OAuth client id the Google Identity Services button needs; null when Google is not configured.
 */
export const SocialProvidersResponseSchema = z.object({
  google: z.object({ clientId: z.string() }).nullable(),
  naver: z.boolean(),
  kakao: z.boolean(),
});
export type SocialProvidersResponse = z.infer<typeof SocialProvidersResponseSchema>;

export const IdentitySchema = z.object({
  provider: SocialProviderSchema,
  /** The e-mail the provider reported at the last sign-in (null when it gave none). */
  email: z.string().nullable(),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type Identity = z.infer<typeof IdentitySchema>;

/** GET /api/auth/identities: the signed-in account's sign-in methods (My Page, Account section). */
export const IdentitiesResponseSchema = z.object({ hasPassword: z.boolean(), identities: z.array(IdentitySchema) });
export type IdentitiesResponse = z.infer<typeof IdentitiesResponseSchema>;

/** Error codes a social redirect flow hands back to the page as `?error=<code>` (login) or `?socialError=<code>` (My Page). */
export const SOCIAL_REDIRECT_ERRORS = [
  'SOCIAL_AUTH_FAILED',
  'SOCIAL_CANCELLED',
  'OAUTH_STATE_MISMATCH',
  'SOCIAL_EMAIL_UNVERIFIED',
  'SOCIAL_ACCOUNT_EXISTS',
  'IDENTITY_IN_USE',
  'SOCIAL_REAUTH_MISMATCH',
  'ACCOUNT_DELETION_PENDING',
  'NOT_CONFIGURED',
  'UNAUTHENTICATED',
  'RATE_LIMITED',
  'INTERNAL',
] as const satisfies readonly ErrorCode[];
export type SocialRedirectError = (typeof SOCIAL_REDIRECT_ERRORS)[number];

/** The redirect error code in a query value, or null for anything else (the page never echoes raw input). */
export function parseSocialRedirectError(value: string | null | undefined): SocialRedirectError | null {
  return (SOCIAL_REDIRECT_ERRORS as readonly string[]).includes(value ?? '') ? (value as SocialRedirectError) : null;
}
