import { Naver, OAuth2Client } from 'arctic';
import { z } from 'zod';
import type { SocialConfig } from '../../config';
import { AppError } from '../../lib/app-error';
import { fetchUserInfo, requestTokens } from './arctic-token';
import type { RedirectOAuthProvider, SocialProfile } from './social-provider';

/** GET /v1/nid/me (Naver Login API, "회원 프로필 조회"): `resultcode` "00" and the `response` fields we read. */
const NaverMeSchema = z.object({
  resultcode: z.string(),
  message: z.string().optional(),
  response: z.object({ id: z.string().min(1), email: z.string().optional(), nickname: z.string().optional(), name: z.string().optional() }).optional(),
});

/**
 * Naver's own mailboxes: Naver vouches for these addresses (they are its accounts). Any other address
 * Naver reports is a contact address it does not say it verified (its profile API has no such flag), so
 * it is treated as unverified (decision 021).
 */
const NAVER_OWN_DOMAINS = new Set(['naver.com']);

/**
 * Naver Login on arctic, with configurable hosts (decision 021). Naver takes no PKCE (its authorize
 * parameters are response_type, client_id, redirect_uri, state); the `state` is still ours and checked.
 * arctic's `Naver` class hard-codes nid.naver.com: this thin subclass builds the authorize URL with
 * arctic's generic `OAuth2Client` on `NAVER_BASE_URL` and sends arctic's token request (client id and
 * secret in the form body, as Naver documents) to `NAVER_BASE_URL/oauth2.0/token`. Naver answers token
 * errors with HTTP 200 and an `error` field, which is refused here.
 */
export class NaverOAuth extends Naver implements RedirectOAuthProvider {
  readonly name = 'naver' as const;
  readonly usesPkce = false;
  private readonly urls: NonNullable<SocialConfig['naver']>;
  private readonly client: OAuth2Client;
  private readonly redirect: string;

  constructor(cfg: NonNullable<SocialConfig['naver']>, redirectUri: string) {
    super(cfg.clientId, cfg.clientSecret, redirectUri);
    this.urls = cfg;
    this.redirect = redirectUri;
    this.client = new OAuth2Client(cfg.clientId, null, redirectUri);
  }

  /** The authorize URL: `NAVER_BASE_URL/oauth2.0/authorize` with our state (no PKCE, no scopes). */
  authorizationUrl(state: string): URL {
    return this.client.createAuthorizationURL(`${this.urls.baseUrl}/oauth2.0/authorize`, state, []);
  }

  /** Code → tokens (`/oauth2.0/token`) → `/v1/nid/me`. @throws AppError SOCIAL_AUTH_FAILED */
  async exchange(code: string, _codeVerifier: string | null, state: string): Promise<SocialProfile> {
    const body = new URLSearchParams({ grant_type: 'authorization_code', client_id: this.urls.clientId, client_secret: this.urls.clientSecret, code, state, redirect_uri: this.redirect });
    const tokens = await requestTokens('naver', `${this.urls.baseUrl}/oauth2.0/token`, body);
    const data = tokens.data as { error?: unknown; access_token?: unknown };
    if (data.error !== undefined || typeof data.access_token !== 'string') {
      throw new AppError('SOCIAL_AUTH_FAILED', { message: `naver token: ${typeof data.error === 'string' ? data.error : 'no access_token'}` });
    }
    const parsed = NaverMeSchema.safeParse(await fetchUserInfo('naver', `${this.urls.apiBaseUrl}/v1/nid/me`, data.access_token));
    if (!parsed.success || parsed.data.resultcode !== '00' || !parsed.data.response) {
      throw new AppError('SOCIAL_AUTH_FAILED', { message: 'naver userinfo: unexpected answer' });
    }
    const r = parsed.data.response;
    const email = r.email?.trim() || null;
    const domain = email?.split('@').at(-1)?.toLowerCase() ?? '';
    return { provider: 'naver', subject: r.id, email, emailVerified: Boolean(email && NAVER_OWN_DOMAINS.has(domain)), name: r.nickname?.trim() || r.name?.trim() || null };
  }
}
