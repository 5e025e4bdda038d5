import type { BillingHistoryResponse, ReceiptResponse } from '@dewy/contracts';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

/** GET /api/billing/history?before=: one page (25 lines) of the caller's billing history, newest first (issue 25). */
export function fetchBillingHistory(before: string | null, signal?: AbortSignal): Promise<BillingHistoryResponse> {
  return api.get('/api/billing/history', { query: before ? { before } : {}, signal });
}

/** GET /api/billing/receipts/{paymentId}: our receipt of one of the caller's payments (404 for anyone else's). */
export function fetchReceipt(paymentId: number, signal?: AbortSignal): Promise<ReceiptResponse> {
  return api.get('/api/billing/receipts/{paymentId}', { path: { paymentId }, signal });
}

/** Query key prefix of the billing history. */
export const BILLING_HISTORY_KEY = 'billing-history';

/**
 * The billing history, paged by the server's cursor ("load more"). The key carries the balance, as the
 * credit history's does: a purchase, renewal or refund moves credits, and the list then starts over
 * from the newest line.
 */
export function useBillingHistory() {
  const { user, status } = useSession();
  return useInfiniteQuery({
    queryKey: [BILLING_HISTORY_KEY, user?.id ?? null, user?.credits ?? null],
    queryFn: ({ pageParam, signal }) => fetchBillingHistory(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: Boolean(user) && status === 'authenticated',
    staleTime: 0,
  });
}

/** True when the server answered that the receipt is not the caller's or does not exist (never retried). */
export function isReceiptNotFound(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 400);
}

/** One receipt; null id (an address that names none) never calls. */
export function useReceipt(paymentId: number | null) {
  const { user } = useSession();
  return useQuery({
    queryKey: ['receipt', user?.id ?? null, paymentId],
    queryFn: ({ signal }) => fetchReceipt(paymentId as number, signal),
    enabled: paymentId !== null && Boolean(user),
    retry: (count, err) => !isReceiptNotFound(err) && !(err instanceof ApiError && err.sessionEnded) && count < 2,
    staleTime: 60_000,
  });
}
