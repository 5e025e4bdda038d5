import { z } from 'zod';
import { safeText } from './text';

/** API key limits (decision 040). */
export const API_KEY_LIMITS = {
  /** A key's name, in characters. */
  nameMax: 60,
  /** Live (not revoked, not expired) keys one account may hold. */
  maxLiveKeys: 10,
  /** The longest expiry one may choose at creation, in days. */
  expiryDaysMax: 365,
} as const;

/** Every secret starts with this; what follows is 32 random bytes in base64url (43 characters). */
export const API_KEY_SECRET_PREFIX = 'dewy_sk_';

/** `POST /api/account/api-keys`: a name, and optionally an expiry in whole days from now. */
export const ApiKeyCreateRequestSchema = z.object({
  name: safeText().trim().min(1).max(API_KEY_LIMITS.nameMax),
  expiresInDays: z.number().int().min(1).max(API_KEY_LIMITS.expiryDaysMax).optional(),
});
export type ApiKeyCreateRequest = z.infer<typeof ApiKeyCreateRequestSchema>;

/** One key as My Page lists it: never its secret. Dates are ISO 8601 strings. */
export const ApiKeySummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** `dewy_sk_` and the secret's first 8 characters: enough to recognise a key, useless to call with. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** `active` (usable while the account is verified), `expired` or `revoked`. */
  state: z.enum(['active', 'expired', 'revoked']),
});
export type ApiKeySummary = z.infer<typeof ApiKeySummarySchema>;

/** A key as the account's answers show it: with the signing secret of its webhooks (decision 040 §3). */
export const ApiKeyViewSchema = ApiKeySummarySchema.extend({
  /**
   * The Standard Webhooks signing secret (`whsec_` + base64 of 32 bytes) that verifies the webhooks of
   * the jobs this key starts. Not a credential: it cannot call the API.
   */
  webhookSecret: z.string(),
});
export type ApiKeyView = z.infer<typeof ApiKeyViewSchema>;

/** `GET /api/account/api-keys`: the account's keys, newest first. */
export const ApiKeyListResponseSchema = z.object({ success: z.literal(true), keys: z.array(ApiKeyViewSchema) });
export type ApiKeyListResponse = z.infer<typeof ApiKeyListResponseSchema>;

/** `POST /api/account/api-keys`: the new key and its secret, shown this once and never again. */
export const ApiKeyCreatedResponseSchema = z.object({ success: z.literal(true), key: ApiKeyViewSchema, secret: z.string() });
export type ApiKeyCreatedResponse = z.infer<typeof ApiKeyCreatedResponseSchema>;

/** `DELETE /api/account/api-keys/:id`: the key, now revoked. */
export const ApiKeyRevokedResponseSchema = z.object({ success: z.literal(true), key: ApiKeyViewSchema });
export type ApiKeyRevokedResponse = z.infer<typeof ApiKeyRevokedResponseSchema>;
