import { CREDIT_HISTORY_PAGE, type CreditHistoryResponse } from '@dewy/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

/** GET /api/credits/history?limit=&offset=: the caller's ledger, newest first, with the balance after each entry. */
export function fetchCreditHistory(limit: number, offset: number): Promise<CreditHistoryResponse> {
  return api.get('/api/credits/history', { query: { limit, offset } });
}

/** Query key prefix of the credit history (invalidate it after anything that moves credits). */
export const CREDIT_HISTORY_KEY = 'credit-history';

/**
 * The credit history, {@link CREDIT_HISTORY_PAGE.default} entries per page. The key carries the balance:
 * when the session's balance changes (a purchase, a spend, a reward), the list starts over from the
 * newest entry instead of showing pages whose offsets have shifted.
 */
export function useCreditHistory() {
  const { user, status } = useSession();
  return useInfiniteQuery({
    queryKey: [CREDIT_HISTORY_KEY, user?.id ?? null, user?.credits ?? null],
    queryFn: ({ pageParam }) => fetchCreditHistory(CREDIT_HISTORY_PAGE.default, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.pagination.hasMore ? last.pagination.nextOffset : null),
    enabled: Boolean(user) && status === 'authenticated',
    staleTime: 0,
  });
}
