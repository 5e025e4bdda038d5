import { useQuery } from '@tanstack/react-query';
import { fetchAffiliateStats } from '../../../lib/affiliate-api';
import { useSession } from '../../../lib/session';
import { AFFILIATE_KEYS } from '../../../shared/affiliate';

/** The sharer's statistics (clicks, sign-ups, paid orders, reward credits), asked only while `active`. */
export function useAffiliateStats(active: boolean) {
  const { user, status } = useSession();
  return useQuery({
    queryKey: [...AFFILIATE_KEYS.stats(user?.id ?? null), user?.bonus_credits ?? null],
    queryFn: fetchAffiliateStats,
    enabled: active && Boolean(user) && status === 'authenticated',
    staleTime: 0,
  });
}
