import { useQuery } from '@tanstack/react-query';
import { safeReturnPath, type GoogleLinkRequest, type IdentitiesResponse, type SocialIntent, type SocialProvider, type SocialProvidersResponse, type User } from '@dewy/contracts';
import { api, apiUrl } from '../../lib/api-client';

/** React Query keys of social sign-in. */
export const SOCIAL_KEYS = {
  providers: ['auth', 'providers'] as const,
  identities: (userId: number | null) => ['auth', 'identities', userId] as const,
};

/** GET /api/auth/providers: which social sign-ins the server has configured (Google's public client id). */
export function fetchSocialProviders(): Promise<SocialProvidersResponse> {
  return api.get('/api/auth/providers', { skipAuthEvent: true });
}

/**
 * The configured providers; while pending or when the call fails, none (the buttons then say "not
 * configured" on click, and the server refuses anyway).
 */
export function useSocialProviders(): SocialProvidersResponse & { ready: boolean } {
  const q = useQuery({ queryKey: SOCIAL_KEYS.providers, queryFn: fetchSocialProviders, staleTime: 10 * 60_000, retry: false });
  return { google: q.data?.google ?? null, naver: q.data?.naver ?? false, kakao: q.data?.kakao ?? false, ready: q.isSuccess || q.isError };
}

/** POST /api/auth/google (spec 000 §7): the GIS credential → the signed-in user. */
export function postGoogleCredential(credential: string): Promise<User> {
  return api.post('/api/auth/google', { body: { credential }, skipAuthEvent: true });
}

/** POST /api/auth/google/link (signed in): link Google, or re-authenticate with the linked Google account. */
export function postGoogleLink(body: GoogleLinkRequest): Promise<{ success: true }> {
  return api.post('/api/auth/google/link', { body });
}

/** GET /api/auth/identities: the signed-in account's sign-in methods. */
export function fetchIdentities(): Promise<IdentitiesResponse> {
  return api.get('/api/auth/identities');
}

/** DELETE /api/auth/identities/{provider}: unlink; answers the remaining methods. */
export function deleteIdentity(provider: SocialProvider): Promise<IdentitiesResponse> {
  return api.delete('/api/auth/identities/{provider}', { path: { provider } });
}

/**
 * Where a Naver or Kakao button sends the browser (a full-page navigation: the server redirects to the
 * provider). `next` is a same-site path in Korean form; `intent` link/reauth need a session.
 */
export function socialStartUrl(provider: 'naver' | 'kakao', opts: { locale: 'ko' | 'en'; intent?: 'login' | SocialIntent; next?: string | null }): string {
  const query = {
    locale: opts.locale,
    intent: opts.intent && opts.intent !== 'login' ? opts.intent : undefined,
    next: safeReturnPath(opts.next) || undefined,
  };
  return provider === 'naver' ? apiUrl('get', '/api/auth/naver', { query }) : apiUrl('get', '/api/auth/kakao', { query });
}
