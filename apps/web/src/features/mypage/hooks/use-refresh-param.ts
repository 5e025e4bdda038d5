import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '../../../lib/session';
import { useInvalidateSubscriptionStatus } from '../../../shared/subscription';
import { CREDIT_HISTORY_KEY } from '../api/credit-history';
import { readPageParams, withoutParams } from '../lib/page-params';

/**
 * `?refresh=<ts>` (001 §2, sent by the pricing page after a plan change): refresh the subscription
 * status and the credits at once (forced session sync, subscription-status and credit-history queries),
 * then remove the parameter from the address. Each value is handled once.
 */
export function useRefreshParam(): void {
  const { search, pathname, hash } = useLocation();
  const navigate = useNavigate();
  const { forceSync } = useSession();
  const invalidateSubscription = useInvalidateSubscriptionStatus();
  const queryClient = useQueryClient();
  const handled = useRef<string | null>(null);
  const { refresh } = readPageParams(search);

  useEffect(() => {
    if (refresh === null || handled.current === refresh) return;
    handled.current = refresh;
    void Promise.allSettled([forceSync(), invalidateSubscription(), queryClient.invalidateQueries({ queryKey: [CREDIT_HISTORY_KEY] })]).then(() => {
      const now = window.location;
      if (now.pathname !== pathname || !new URLSearchParams(now.search).has('refresh')) return;
      void navigate(`${now.pathname}${withoutParams(now.search, ['refresh'])}${hash}`, { replace: true, preventScrollReset: true });
    });
  }, [refresh, forceSync, invalidateSubscription, queryClient, navigate, pathname, hash]);
}
