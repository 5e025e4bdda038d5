import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { SUBSCRIPTION_STATUS_KEY, fetchSubscriptionStatus } from '../../../lib/billing-api';
import { useSession } from '../../../lib/session';

/**
 * GET /api/payment/subscription-status for the signed-in user (cached per user). It is only asked once
 * the session is confirmed: a visitor's call would answer 401 and open the session-expired modal.
 * While it loads or when it fails, pages fall back to the session user's fields.
 */
export function useSubscriptionStatus() {
  const { user, status } = useSession();
  return useQuery({
    queryKey: [SUBSCRIPTION_STATUS_KEY, user?.id ?? null],
    queryFn: () => fetchSubscriptionStatus(),
    enabled: Boolean(user) && status === 'authenticated',
    staleTime: 0,
  });
}

/** A function that makes every subscription-status query fetch again (after a purchase or a change). */
export function useInvalidateSubscriptionStatus(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: [SUBSCRIPTION_STATUS_KEY] }), [queryClient]);
}
