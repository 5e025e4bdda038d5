import { useQuery } from '@tanstack/react-query';
import type { SiteInfoResponse } from '@dewy/contracts';
import { apiRequest } from './api-client';
import { SUPPORT_EMAIL } from './config';

/** GET /api/site-info: the operator's business details (null where the operator has not set them). */
export function fetchSiteInfo(): Promise<SiteInfoResponse> {
  return apiRequest<SiteInfoResponse>('/api/site-info', { skipAuthEvent: true });
}

const EMPTY: SiteInfoResponse = { success: true, company: { name: null, ceo: null, address: null, registrationNo: null, mailOrderNo: null }, supportEmail: null };

/**
 * The site's business details for the footer and the legal pages. While loading, or when the call
 * fails, every detail is null (shown as "to be filled in"); `supportEmail` falls back to the build-time
 * address, so customers always have somewhere to write.
 */
export function useSiteInfo(): { company: SiteInfoResponse['company']; supportEmail: string; loaded: boolean } {
  const query = useQuery({ queryKey: ['site-info'], queryFn: fetchSiteInfo, staleTime: 30 * 60_000, retry: 1 });
  const data = query.data ?? EMPTY;
  return { company: data.company, supportEmail: data.supportEmail ?? SUPPORT_EMAIL, loaded: query.isSuccess };
}
