import type { SocialProviderName } from '../../db/schema';

/**
 * What a provider tells us about the person who signed in, normalised (decision 021). `emailVerified`
 * is true only when the provider vouches for the address; an unverified address never creates,
 * matches or links an account.
 */
export interface SocialProfile {
  provider: SocialProviderName;
  /** The provider's stable user id (Google `sub`, Naver `response.id`, Kakao `id`), as a string. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  /** A display name for a new account's nickname, when the provider gives one. */
  name: string | null;
}

/**
 * A browser-redirect provider (Naver, Kakao): OAuth 2.0 authorisation code, with PKCE where the
 * provider takes it. Shaped by our use, not by the vendor's API.
 */
export interface RedirectOAuthProvider {
  name: 'naver' | 'kakao';
  /** Whether the provider takes PKCE (`code_challenge` S256 / `code_verifier`). */
  usesPkce: boolean;
  /** The provider's authorize URL for this attempt. `codeVerifier` is null when `usesPkce` is false. */
  authorizationUrl(state: string, codeVerifier: string | null): URL;
  /**
   * Exchanges the callback's code for tokens and reads the user's profile.
   * @throws AppError SOCIAL_AUTH_FAILED when the provider refuses the code (replayed, expired, wrong
   *   verifier), fails, or answers something unusable (the provider's detail goes in `message`, for the log).
   */
  exchange(code: string, codeVerifier: string | null, state: string): Promise<SocialProfile>;
}
