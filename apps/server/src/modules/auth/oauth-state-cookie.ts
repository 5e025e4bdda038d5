import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * The short-lived, signed, HttpOnly cookie that carries a redirect sign-in attempt from
 * `GET /api/auth/<provider>` to its callback (decision 021): the `state` we sent, the PKCE code verifier,
 * what the attempt is for (sign in, link to the signed-in account, or re-authenticate it) and where the
 * browser goes afterwards. Stateless (no table); `<base64url JSON>.<HMAC-SHA256>` with a key derived
 * from APP_SECRET. One cookie per provider, on that provider's path only.
 */
export const OAUTH_STATE_MAX_AGE_S = 600;

export const oauthStateCookieName = (provider: string) => `dewy_oauth_${provider}`;

const PayloadSchema = z.object({
  /** provider */
  p: z.enum(['naver', 'kakao']),
  /** state */
  s: z.string().min(16).max(100),
  /** PKCE code verifier (null for Naver) */
  v: z.string().min(43).max(128).nullable(),
  /** intent */
  i: z.enum(['login', 'link', 'reauth']),
  /** the signed-in user at the start (link and reauth) */
  u: z.number().int().positive().nullable(),
  /** where to go afterwards (a same-site path without the /en prefix), or null */
  n: z.string().max(200).nullable(),
  /** page language */
  l: z.enum(['ko', 'en']),
  /** expiry, s since epoch */
  e: z.number().int(),
});
export type OAuthStatePayload = z.infer<typeof PayloadSchema>;

/** The state-cookie key: HMAC(APP_SECRET, label), distinct from every other key derived from it. */
export function oauthStateKey(appSecret: string): Buffer {
  return createHmac('sha256', appSecret).update('dewy:oauth-state:v1').digest();
}

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest('base64url');

/** The cookie value for a new attempt; `e` is set to now + OAUTH_STATE_MAX_AGE_S. */
export function sealOAuthState(key: Buffer, payload: Omit<OAuthStatePayload, 'e'>, nowMs = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ ...payload, e: Math.floor(nowMs / 1000) + OAUTH_STATE_MAX_AGE_S })).toString('base64url');
  return `${body}.${mac(key, body)}`;
}

/**
 * The attempt in a cookie value, or null when it is missing, malformed, wrongly signed (constant-time
 * comparison) or expired. Never throws.
 */
export function openOAuthState(key: Buffer, value: string | undefined, nowMs = Date.now()): OAuthStatePayload | null {
  if (!value || value.length > 2000) return null;
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return null;
  const body = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(key, body));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = PayloadSchema.safeParse(json);
  if (!parsed.success || parsed.data.e * 1000 <= nowMs) return null;
  return parsed.data;
}

/** Constant-time equality of the callback's `state` and the cookie's. */
export function sameState(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
