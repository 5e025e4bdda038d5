import { PACK_IDS, PAID_PLANS, type BillingHistoryEntry, type CompanyInfo } from '@dewy/contracts';

/**
 * What My Page's billing history and the receipt page show of the server's answers (issue 25), as
 * pure functions for unit tests: which name an item has, the signed amount of a line, where its
 * receipt opens, and which of the seller's details a receipt shows.
 */

/** The catalogue an item's name comes from: a plan (`plans.*`), a pack (`packs.*`), or neither (shown as sent). */
export type BillingItem = { kind: 'plan'; plan: (typeof PAID_PLANS)[number] } | { kind: 'pack'; pack: (typeof PACK_IDS)[number] } | { kind: 'other'; id: string };

export function billingItem(item: string): BillingItem {
  if ((PAID_PLANS as readonly string[]).includes(item)) return { kind: 'plan', plan: item as (typeof PAID_PLANS)[number] };
  if ((PACK_IDS as readonly string[]).includes(item)) return { kind: 'pack', pack: item as (typeof PACK_IDS)[number] };
  return { kind: 'other', id: item };
}

/** The amount a line shows, in minor units: money given back (a refund line) is negative. */
export function signedAmount(entry: Pick<BillingHistoryEntry, 'kind' | 'amount'>): number {
  return entry.kind === 'refund' ? -Math.abs(entry.amount) : entry.amount;
}

/** Where a line's receipt opens: the provider's page in a new tab, or our receipt page inside the site. */
export type ReceiptLink = { kind: 'external'; href: string } | { kind: 'internal'; path: string };

/**
 * The receipt of a line: an absolute http(s) URL is the provider's page; a site path (one `/`, not
 * `//`) is ours (`/mypage/receipts/{id}`, Korean form, the caller adds the language). Anything else
 * (none, a `javascript:` or protocol-relative address) is no link.
 */
export function receiptLink(url: string | null): ReceiptLink | null {
  if (!url) return null;
  // Our redirect to a provider's fresh receipt link (Paddle's expire): a server route, opened like the provider's page.
  if (/^\/api\/billing\/receipts\/\d+\/provider$/.test(url)) return { kind: 'external', href: url };
  if (url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\')) return { kind: 'internal', path: url };
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? { kind: 'external', href: parsed.href } : null;
  } catch {
    return null;
  }
}

/** A receipt page's id from the address: a positive whole number, else null (shown as not found without a call). */
export function parseReceiptId(param: string | undefined): number | null {
  if (!param || !/^[1-9]\d{0,15}$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) ? id : null;
}

/** A seller detail a receipt can show: the label's key in `legal.company.*` and its value. */
export type SellerField = 'name' | 'ceo' | 'registrationNo' | 'mailOrderNo' | 'address' | 'email';

/**
 * The seller's block of a receipt: the operator's details in the order a Korean receipt lists them,
 * only those that are set (GET /api/site-info; null while unset); empty when none is.
 */
export function sellerRows(company: CompanyInfo, supportEmail: string | null): [SellerField, string][] {
  const rows: [SellerField, string | null][] = [
    ['name', company.name],
    ['ceo', company.ceo],
    ['registrationNo', company.registrationNo],
    ['mailOrderNo', company.mailOrderNo],
    ['address', company.address],
    ['email', supportEmail],
  ];
  return rows.filter((r): r is [SellerField, string] => typeof r[1] === 'string' && r[1].trim() !== '');
}
