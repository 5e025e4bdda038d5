import type { AppConfig } from '../../config';
import { GoogleIdTokenVerifier } from './google-id-token';
import { KakaoOAuth } from './kakao.oauth';
import { NaverOAuth } from './naver.oauth';
import type { RedirectOAuthProvider } from './social-provider';

export type { RedirectOAuthProvider, SocialProfile } from './social-provider';
export { GoogleIdTokenVerifier } from './google-id-token';

/** The social sign-in adapters of a configuration; a provider without its client id/secret is null. */
export interface SocialProviders {
  google: GoogleIdTokenVerifier | null;
  naver: RedirectOAuthProvider | null;
  kakao: RedirectOAuthProvider | null;
}

/** The callback URL a redirect provider sends the browser back to (registered with the provider). */
export function callbackUrl(config: AppConfig, provider: 'naver' | 'kakao'): string {
  return `${config.publicUrl}/api/auth/${provider}/callback`;
}

/** Builds the adapters from `config.social` (decision 021). */
export function createSocialProviders(config: AppConfig): SocialProviders {
  const s = config.social;
  return {
    google: s.google ? new GoogleIdTokenVerifier(s.google) : null,
    naver: s.naver ? new NaverOAuth(s.naver, callbackUrl(config, 'naver')) : null,
    kakao: s.kakao ? new KakaoOAuth(s.kakao, callbackUrl(config, 'kakao')) : null,
  };
}
