import type {
  CancelSubscriptionResponse,
  ChangePlanResponse,
  CheckoutResponse,
  CheckoutStatusResponse,
  Currency,
  PackId,
  PaidPlan,
  ResumeSubscriptionResponse,
  SubscriptionStatusResponse,
  WithdrawDowngradeResponse,
} from '@dewy/contracts';
import { api } from './api-client';

/**
 * The payment calls of spec 000 §7 and 001 §7 (shapes in @dewy/contracts billing.ts). Every call goes
 * through {@link api}: cookie session, no caching, failures as ApiError in the caller's language.
 */

/**
 * POST /api/payment/checkout: a new subscription; the browser then goes to `checkout_url`.
 * @param currency the currency the customer chose (issue 25); left out, the server takes the language's
 */
export function postCheckout(plan: PaidPlan, currency?: Currency): Promise<CheckoutResponse> {
  return api.post('/api/payment/checkout', { body: { plan, currency } });
}

/** POST /api/payment/credit-checkout: a one-time pack, in `currency` when given (as {@link postCheckout}). */
export function postCreditCheckout(pack: PackId, currency?: Currency): Promise<CheckoutResponse> {
  return api.post('/api/payment/credit-checkout', { body: { package: pack, currency } });
}

/** POST /api/payment/change-plan: upgrade now (prorated) or downgrade from the next cycle. */
export function postChangePlan(plan: PaidPlan): Promise<ChangePlanResponse> {
  return api.post('/api/payment/change-plan', { body: { plan } });
}

/** GET /api/payment/subscription-status (signed-in callers only: a 401 opens the session-expired modal). */
export function fetchSubscriptionStatus(): Promise<SubscriptionStatusResponse> {
  return api.get('/api/payment/subscription-status');
}

/** POST /api/payment/withdraw-downgrade: removes a scheduled downgrade (409 NO_SCHEDULED_CHANGE when none). */
export function postWithdrawDowngrade(): Promise<WithdrawDowngradeResponse> {
  return api.post('/api/payment/withdraw-downgrade', { body: {} });
}

/** POST /api/payment/cancel-subscription: schedules the end at the period's end. */
export function postCancelSubscription(): Promise<CancelSubscriptionResponse> {
  return api.post('/api/payment/cancel-subscription', { body: {} });
}

/** POST /api/payment/resume-subscription: revokes a scheduled cancellation. */
export function postResumeSubscription(): Promise<ResumeSubscriptionResponse> {
  return api.post('/api/payment/resume-subscription', { body: {} });
}

/**
 * GET /api/payment/checkout/{id}: what the server knows of one of the caller's checkouts.
 * @param id a checkout id, or `latest` for the caller's most recent checkout
 */
export function fetchCheckoutStatus(id: string, signal?: AbortSignal): Promise<CheckoutStatusResponse> {
  return api.get('/api/payment/checkout/{id}', { path: { id }, signal });
}

/** The key under which React Query keeps the subscription status (invalidate it after a change). */
export const SUBSCRIPTION_STATUS_KEY = 'subscription-status';
