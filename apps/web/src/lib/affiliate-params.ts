/**
 * The share-link parameters of spec 001 §7: a page opened with `?aff=<code>` (and optionally
 * `campaign`) records the click, then drops both from the address. Pure, for unit tests.
 */

/** Names the share link adds to an address. */
export const AFFILIATE_PARAMS = ['aff', 'campaign'] as const;

/** The code and campaign an address carries; null without a non-empty `aff`. */
export function readAffiliateParams(search: string): { aff: string; campaign: string | null } | null {
  const q = new URLSearchParams(search);
  const aff = q.get('aff')?.trim();
  if (!aff) return null;
  const campaign = q.get('campaign')?.trim() || null;
  return { aff, campaign };
}

/**
 * The query string without `aff` and `campaign` (every other parameter kept in order), with its
 * leading `?`, or '' when nothing is left.
 */
export function withoutAffiliateParams(search: string): string {
  const q = new URLSearchParams(search);
  for (const name of AFFILIATE_PARAMS) q.delete(name);
  const rest = q.toString();
  return rest ? `?${rest}` : '';
}
