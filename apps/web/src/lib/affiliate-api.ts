import type { AffiliateClickResponse, AffiliateCodeResponse, AffiliateEnabledResponse, AffiliateStatsResponse } from '@dewy/contracts';
import { api } from './api-client';

/**
 * The affiliate calls of spec 001 §7 and 002 §7 plus the sharer's statistics (decision 013). Every call
 * goes through {@link api} (cookie session, no caching).
 */

export type { AffiliateCodeResponse, AffiliateEnabledResponse, AffiliateStatsResponse };

/** Whether the server runs the affiliate programme (public; no session needed). */
export function fetchAffiliateEnabled(): Promise<AffiliateEnabledResponse> {
  return api.get('/api/affiliate/enabled', { skipAuthEvent: true });
}

/** The caller's code and share link, created on first call (signed-in callers only). */
export function postEnsureAffiliateCode(): Promise<AffiliateCodeResponse> {
  return api.post('/api/affiliate/ensure-code', { body: {} });
}

/**
 * Records a visit through a share link; the server sets the attribution cookie. Public, and a 401 here
 * never means the visitor's session expired, so no `auth:invalid` event.
 */
export function recordAffiliateClick(aff: string, campaign: string | null): Promise<AffiliateClickResponse> {
  return api.get('/api/affiliate/click', { query: { aff, campaign: campaign || undefined }, skipAuthEvent: true });
}

/** The caller's sharer statistics. */
export function fetchAffiliateStats(): Promise<AffiliateStatsResponse> {
  return api.get('/api/affiliate/stats');
}
