import { z } from 'zod';

/**
 * GET /api/site-info (issue 13): the operator's business details shown by the footer and the legal
 * pages (Korean e-commerce law asks for them). Every field is null until the operator configures it
 * (`COMPANY_*`, `SUPPORT_EMAIL`); the pages show only the details that are set.
 */
export const SiteInfoResponseSchema = z.object({
  success: z.literal(true),
  company: z.object({
    name: z.string().nullable(),
    ceo: z.string().nullable(),
    address: z.string().nullable(),
    registrationNo: z.string().nullable(),
    mailOrderNo: z.string().nullable(),
  }),
  supportEmail: z.string().nullable(),
});
export type SiteInfoResponse = z.infer<typeof SiteInfoResponseSchema>;
export type CompanyInfo = SiteInfoResponse['company'];

/** GET /api/maintenance (issue 13) and PUT /api/admin/maintenance: whether maintenance is on, by whom, since when. */
export const MaintenanceResponseSchema = z.object({
  success: z.literal(true),
  on: z.boolean(),
  /** Where it comes from: the MAINTENANCE_MODE environment variable, or the administrator's switch. */
  source: z.enum(['env', 'admin']).nullable(),
  since: z.string().nullable(),
});
export type MaintenanceResponse = z.infer<typeof MaintenanceResponseSchema>;

/** GET /api/auth/banned-keywords and PUT /api/admin/banned-keywords (002 §7). */
export const BannedKeywordsResponseSchema = z.object({ success: z.literal(true), keywords: z.array(z.string()) });
export type BannedKeywordsResponse = z.infer<typeof BannedKeywordsResponseSchema>;

/** The affiliate calls of spec 001 §7 and 002 §7 plus the sharer's statistics (decision 013). */

/** GET /api/affiliate/enabled. */
export const AffiliateEnabledResponseSchema = z.object({ enabled: z.boolean() });
export type AffiliateEnabledResponse = z.infer<typeof AffiliateEnabledResponseSchema>;

/** POST /api/affiliate/ensure-code: the caller's one code and the share link (site origin + `?aff=`). */
export const AffiliateCodeResponseSchema = z.object({ success: z.literal(true), affiliate_code: z.string(), link: z.string() });
export type AffiliateCodeResponse = z.infer<typeof AffiliateCodeResponseSchema>;

/** GET /api/affiliate/click: whether the visit was recorded (the attribution cookie set). */
export const AffiliateClickResponseSchema = z.object({ success: z.literal(true), recorded: z.boolean() });
export type AffiliateClickResponse = z.infer<typeof AffiliateClickResponseSchema>;

/** GET /api/affiliate/stats: what the caller's link has brought. */
export const AffiliateStatsResponseSchema = z.object({
  success: z.literal(true),
  enabled: z.boolean(),
  clicks: z.number().int(),
  /** Eligible sign-ups (self-referrals are not counted). */
  signups: z.number().int(),
  /** Rewarded payments. */
  paidOrders: z.number().int(),
  /** Bonus credits earned, net of reversed rewards. */
  rewardCredits: z.number().int(),
});
export type AffiliateStatsResponse = z.infer<typeof AffiliateStatsResponseSchema>;
