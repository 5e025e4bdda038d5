import { z } from 'zod';

/**
 * GET /api/site-info (issue 13): the operator's business details shown by the footer and the legal
 * pages (Korean e-commerce law asks for them). Every field is null until the operator configures it
 * (`COMPANY_*`, `SUPPORT_EMAIL`); the page then says it is still to be filled in.
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
