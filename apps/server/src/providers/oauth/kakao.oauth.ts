import { CodeChallengeMethod, Kakao, OAuth2Client } from 'arctic';
import { z } from 'zod';
import type { SocialConfig } from '../../config';
import { AppError } from '../../lib/app-error';
import { fetchUserInfo, requestTokens } from './arctic-token';
import type { RedirectOAuthProvider, SocialProfile } from './social-provider';

/** Kakao's consent items we ask for: the e-mail (with its verification flags) and the nickname. */
const KAKAO_SCOPES = ['account_email', 'profile_nickname'];

/** GET /v2/user/me (Kakao Login REST API, "Retrieve user information"): the fields we read. */
const KakaoUserSchema = z.object({
  id: z.union([z.number(), z.string()]),
  kakao_account: z
    .object({
      email: z.string().optional(),
      is_email_valid: z.boolean().optional(),
      is_email_verified: z.boolean().optional(),
      profile: z.object({ nickname: z.string().optional() }).partial().optional(),
    })
    .partial()
    .optional(),
});

/**
 * Kakao Login (REST API) on arctic, with configurable hosts (decision 021). arctic's `Kakao` class
 * hard-codes kauth.kakao.com and sends no PKCE; this thin subclass keeps its token request (client id and
 * secret in the form body) but builds the authorize URL with arctic's generic `OAuth2Client` on
 * `KAKAO_BASE_URL` with S256 PKCE, and sends `code_verifier` to `KAKAO_BASE_URL/oauth/token`.
 * The profile comes from `KAKAO_API_BASE_URL/v2/user/me`; the e-mail counts as verified only when Kakao
 * says it is both valid and verified (`is_email_valid`, `is_email_verified`).
 */
export class KakaoOAuth extends Kakao implements RedirectOAuthProvider {
  readonly name = 'kakao' as const;
  readonly usesPkce = true;
  private readonly urls: NonNullable<SocialConfig['kakao']>;
  private readonly client: OAuth2Client;
  private readonly redirect: string;

  constructor(cfg: NonNullable<SocialConfig['kakao']>, redirectUri: string) {
    super(cfg.clientId, cfg.clientSecret, redirectUri);
    this.urls = cfg;
    this.redirect = redirectUri;
    this.client = new OAuth2Client(cfg.clientId, null, redirectUri);
  }

  /** The authorize URL: `KAKAO_BASE_URL/oauth/authorize` with state, PKCE S256 and our scopes. */
  authorizationUrl(state: string, codeVerifier: string | null): URL {
    const endpoint = `${this.urls.baseUrl}/oauth/authorize`;
    if (!codeVerifier) return this.client.createAuthorizationURL(endpoint, state, KAKAO_SCOPES);
    return this.client.createAuthorizationURLWithPKCE(endpoint, state, CodeChallengeMethod.S256, codeVerifier, KAKAO_SCOPES);
  }

  /** Code → tokens (`/oauth/token`) → `/v2/user/me`. @throws AppError SOCIAL_AUTH_FAILED */
  async exchange(code: string, codeVerifier: string | null): Promise<SocialProfile> {
    const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: this.redirect, client_id: this.urls.clientId, client_secret: this.urls.clientSecret });
    if (codeVerifier) body.set('code_verifier', codeVerifier);
    const tokens = await requestTokens('kakao', `${this.urls.baseUrl}/oauth/token`, body);
    let accessToken: string;
    try {
      accessToken = tokens.accessToken();
    } catch {
      throw new AppError('SOCIAL_AUTH_FAILED', { message: 'kakao token: no access_token' });
    }
    const parsed = KakaoUserSchema.safeParse(await fetchUserInfo('kakao', `${this.urls.apiBaseUrl}/v2/user/me`, accessToken));
    if (!parsed.success) throw new AppError('SOCIAL_AUTH_FAILED', { message: 'kakao userinfo: unexpected shape' });
    const acct = parsed.data.kakao_account ?? {};
    const email = acct.email?.trim() || null;
    return {
      provider: 'kakao',
      subject: String(parsed.data.id),
      email,
      emailVerified: Boolean(email && acct.is_email_valid === true && acct.is_email_verified === true),
      name: acct.profile?.nickname?.trim() || null,
    };
  }
}
