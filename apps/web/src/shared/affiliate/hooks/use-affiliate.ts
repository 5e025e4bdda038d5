import { useQuery } from '@tanstack/react-query';
import { fetchAffiliateEnabled, postEnsureAffiliateCode } from '../../../lib/affiliate-api';
import { useSession } from '../../../lib/session';

/** React Query keys of the affiliate programme. */
export const AFFILIATE_KEYS = {
  enabled: ['affiliate', 'enabled'] as const,
  link: (userId: number | null) => ['affiliate', 'link', userId] as const,
  stats: (userId: number | null) => ['affiliate', 'stats', userId] as const,
};

/**
 * Whether the affiliate feature shows (001 §6: only when the server reports it enabled). False while
 * the answer is pending and when the call fails: the page never offers what the server may refuse.
 */
export function useAffiliateEnabled(): boolean {
  const query = useQuery({
    queryKey: AFFILIATE_KEYS.enabled,
    queryFn: async () => (await fetchAffiliateEnabled()).enabled,
    staleTime: 5 * 60_000,
    retry: false,
  });
  return query.data === true;
}

/**
 * The signed-in user's share link (POST /api/affiliate/ensure-code, idempotent on the server: the
 * same code every time), asked only while `active` (the feature is on and the link is about to show).
 */
export function useAffiliateLink(active: boolean) {
  const { user, status } = useSession();
  return useQuery({
    queryKey: AFFILIATE_KEYS.link(user?.id ?? null),
    queryFn: postEnsureAffiliateCode,
    enabled: active && Boolean(user) && status === 'authenticated',
    staleTime: Infinity,
    retry: 1,
  });
}
