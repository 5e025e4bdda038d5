import { api, undeclaredAnswer } from './api-client';

/**
 * The affiliate calls of spec 001 §7 and 002 §7 plus the sharer's statistics (decision 013). Every call
 * goes through {@link api} (cookie session, no caching).
 */

/** GET /api/affiliate/enabled. */
export interface AffiliateEnabledResponse {
  enabled: boolean;
}

/** POST /api/affiliate/ensure-code: the caller's one code and the share link (site origin + `?aff=`). */
export interface AffiliateCodeResponse {
  success: true;
  affiliate_code: string;
  link: string;
}

/** GET /api/affiliate/stats: what the caller's link has brought. */
export interface AffiliateStatsResponse {
  success: true;
  enabled: boolean;
  clicks: number;
  /** Eligible sign-ups (self-referrals are not counted). */
  signups: number;
  /** Rewarded payments. */
  paidOrders: number;
  /** Bonus credits earned, net of reversed rewards. */
  rewardCredits: number;
}

/** Whether the server runs the affiliate programme (public; no session needed). */
export function fetchAffiliateEnabled(): Promise<AffiliateEnabledResponse> {
  return undeclaredAnswer<AffiliateEnabledResponse>(api.get('/api/affiliate/enabled', { skipAuthEvent: true }));
}

/** The caller's code and share link, created on first call (signed-in callers only). */
export function postEnsureAffiliateCode(): Promise<AffiliateCodeResponse> {
  return undeclaredAnswer<AffiliateCodeResponse>(api.post('/api/affiliate/ensure-code', { body: {} }));
}

/**
 * Records a visit through a share link; the server sets the attribution cookie. Public, and a 401 here
 * never means the visitor's session expired, so no `auth:invalid` event.
 */
export function recordAffiliateClick(aff: string, campaign: string | null): Promise<{ success: true; recorded: boolean }> {
  return undeclaredAnswer<{ success: true; recorded: boolean }>(api.get('/api/affiliate/click', { query: { aff, campaign: campaign || undefined }, skipAuthEvent: true }));
}

/** The caller's sharer statistics. */
export function fetchAffiliateStats(): Promise<AffiliateStatsResponse> {
  return undeclaredAnswer<AffiliateStatsResponse>(api.get('/api/affiliate/stats'));
}
