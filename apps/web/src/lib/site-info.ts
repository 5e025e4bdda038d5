import type { SiteInfoResponse } from '@dewy/contracts';
import { api } from './api-client';
import { SUPPORT_EMAIL } from './config';
import { createSharedResource } from './shared-resource';

/** GET /api/site-info: the operator's business details (null where the operator has not set them). */
export function fetchSiteInfo(): Promise<SiteInfoResponse> {
  return api.get('/api/site-info', { skipAuthEvent: true });
}

const EMPTY: SiteInfoResponse = { success: true, company: { name: null, ceo: null, address: null, registrationNo: null, mailOrderNo: null }, supportEmail: null };

const useSiteInfoResource = createSharedResource(fetchSiteInfo, { staleMs: 30 * 60_000, retries: 1 });

/**
 * The site's business details for the footer and the legal pages. While loading, or when the call
 * fails, every detail is null (and not shown); `supportEmail` falls back to the build-time
 * address, so customers always have somewhere to write.
 */
export function useSiteInfo(): { company: SiteInfoResponse['company']; supportEmail: string; loaded: boolean } {
  const query = useSiteInfoResource();
  const data = query.data ?? EMPTY;
  return { company: data.company, supportEmail: data.supportEmail ?? SUPPORT_EMAIL, loaded: query.status === 'success' };
}

/**
 * The details exactly as the operator set them, for a document that must not invent any (the receipt's
 * seller block, issue 25): the support e-mail is null while unset, with no build-time stand-in.
 */
export function useSiteInfoDetails(): { company: SiteInfoResponse['company']; supportEmail: string | null } {
  const data = useSiteInfoResource().data ?? EMPTY;
  return { company: data.company, supportEmail: data.supportEmail };
}
