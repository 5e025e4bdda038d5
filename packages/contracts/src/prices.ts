import { z } from 'zod';
import { CREDIT_PACKS, SUBSCRIPTION_PLANS } from './constants';
import { PACK_IDS, PAID_PLANS, type PackId, type PaidPlan } from './billing';
import { CURRENCIES, CURRENCY_EXPONENT, type CatalogItem, type Currency } from './money';

/**
 * Prices in two currencies (issue 25, decision 041): US dollars (spec 000 §3, the list the spec
 * gives) and Korean won, declared once here and overridable per item by configuration
 * (`PRICE_USD_<ITEM>`, `PRICE_KRW_<ITEM>`, read by the server, which sends the table in force with
 * `GET /api/payment/prices`). Credits granted never depend on the currency: a plan or pack grants
 * what `SUBSCRIPTION_PLANS` / `CREDIT_PACKS` say in both.
 *
 * Amounts are integers in the currency's **minor unit** (ISO 4217 exponent, as Stripe and Paddle
 * take them): cents for USD (exponent 2), won for KRW (exponent 0). The currencies, the default table
 * and formatPrice live in the zod-free `money.ts` (re-exported here), which the landing page can import.
 */

export { CURRENCIES, CURRENCY_EXPONENT, KRW_PER_USD_DEFAULT_RATE, wonFromUsd, DEFAULT_PRICES, toMajorUnits, formatPrice, defaultCurrency } from './money';
export type { Currency, CatalogItem, ItemPrices, PriceTable } from './money';

export const CurrencySchema = z.enum(CURRENCIES);

/** Everything that can be bought: the three plans and the five packs. */
export const CATALOG_ITEMS: readonly CatalogItem[] = [...PAID_PLANS, ...PACK_IDS];

/** Credits an item grants, the same in every currency. */
export function itemCredits(item: CatalogItem): number {
  return (PAID_PLANS as readonly string[]).includes(item) ? SUBSCRIPTION_PLANS[item as PaidPlan].credits : CREDIT_PACKS[item as PackId].credits;
}

/**
 * A decimal amount in major units, as configuration writes it ('9', '9.50', '12900'), in minor units.
 * A zero-decimal currency takes only zeros after the point ('12900.00' is 12900 won; '12.5' is not).
 * @returns the integer, or null when it is not a positive amount with at most the currency's decimals.
 */
export function parseMajorUnits(text: string, currency: Currency): number | null {
  const digits = CURRENCY_EXPONENT[currency];
  const m = /^(\d{1,9})(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const fraction = m[2] ?? '';
  if (digits === 0 ? !/^0*$/.test(fraction) : fraction.length > digits) return null;
  const minor = Number(m[1]) * 10 ** digits + (digits > 0 ? Number(fraction.padEnd(digits, '0')) : 0);
  return minor > 0 ? minor : null;
}

const ItemPricesSchema = z.object({ usd: z.number().int().positive(), krw: z.number().int().positive() });

/** GET /api/payment/prices: the table in force and which currencies the payment provider in use takes. */
export const PricesResponseSchema = z.object({
  success: z.literal(true),
  prices: z.object(Object.fromEntries(CATALOG_ITEMS.map((i) => [i, ItemPricesSchema])) as Record<CatalogItem, typeof ItemPricesSchema>),
  /** Currencies a checkout may be opened in now (Lemon Squeezy: USD only), never empty. */
  currencies: z.array(CurrencySchema).min(1),
});
export type PricesResponse = z.infer<typeof PricesResponseSchema>;

/**
 * Payment methods as the providers name them (Stripe's payment method types; Paddle's and the
 * sandbox's are mapped onto these), with the names customers know (issue 25). Korean methods are
 * offered only in won.
 */
export const PAYMENT_METHOD_NAMES = {
  card: { ko: '카드', en: 'Card' },
  kr_card: { ko: '국내 카드', en: 'Korean card' },
  kakao_pay: { ko: '카카오페이', en: 'Kakao Pay' },
  naver_pay: { ko: '네이버페이', en: 'Naver Pay' },
  payco: { ko: '페이코', en: 'PAYCO' },
  samsung_pay: { ko: '삼성페이', en: 'Samsung Pay' },
  apple_pay: { ko: 'Apple Pay', en: 'Apple Pay' },
  google_pay: { ko: 'Google Pay', en: 'Google Pay' },
  paypal: { ko: 'PayPal', en: 'PayPal' },
} as const;
export type PaymentMethod = keyof typeof PAYMENT_METHOD_NAMES;

/** Korean methods that can pay a subscription (Stripe: Kakao Pay, Naver Pay and Korean cards in subscription mode). */
export const KRW_SUBSCRIPTION_METHODS: readonly PaymentMethod[] = ['card', 'kr_card', 'kakao_pay', 'naver_pay'];
/** Korean methods for a one-time payment in won. */
export const KRW_ONE_TIME_METHODS: readonly PaymentMethod[] = ['card', 'kr_card', 'kakao_pay', 'naver_pay', 'payco', 'samsung_pay'];

/** A method's name in the language; an unknown method (a provider's new one) as the provider wrote it. */
export function paymentMethodName(method: string | null | undefined, locale: 'ko' | 'en'): string {
  if (!method) return '';
  const known = (PAYMENT_METHOD_NAMES as Record<string, { ko: string; en: string }>)[method];
  return known ? known[locale] : method;
}

/**
 * The billing history of My Page (issue 25): one line per payment, renewal, failed charge and refund.
 * - `purchase`: a pack; `subscription`: a subscription's first payment; `renewal`; `upgrade` (the
 *   prorated difference); `failed`: a charge the provider could not take; `refund`: money given back
 *   (its own line, dated when the refund was recorded, `credits` negative: what was taken back).
 */
export const BILLING_HISTORY_KINDS = ['purchase', 'subscription', 'renewal', 'upgrade', 'failed', 'refund'] as const;
export type BillingHistoryKind = (typeof BILLING_HISTORY_KINDS)[number];

export const BillingHistoryEntrySchema = z.object({
  /** Stable id of the line: `p<payment id>` or `r<payment id>` for its refund. */
  id: z.string(),
  /** The payment row the line is about (the receipt page's id). */
  paymentId: z.number().int(),
  kind: z.enum(BILLING_HISTORY_KINDS),
  /** Plan or pack id. */
  item: z.string(),
  /** ISO instant (the page shows it in KST). */
  at: z.string(),
  /** Minor units of `currency`; for a refund line, what was refunded. */
  amount: z.number().int(),
  currency: CurrencySchema,
  /** `card`, `kakao_pay` … as the provider said; null when it did not. */
  method: z.string().nullable(),
  /** Credits granted (positive) or taken back (negative, refund lines). */
  credits: z.number().int(),
  /**
   * The receipt: the provider's page (Stripe hosted invoice or receipt, Paddle invoice, LS receipt) as
   * an absolute URL, or ours as a path (`/mypage/receipts/{paymentId}`); null for a failed charge.
   */
  receiptUrl: z.string().nullable(),
});
export type BillingHistoryEntry = z.infer<typeof BillingHistoryEntrySchema>;

/** GET /api/billing/history?before=<cursor>: newest first, 25 a page. */
export const BillingHistoryResponseSchema = z.object({
  success: z.literal(true),
  entries: z.array(BillingHistoryEntrySchema),
  /** Pass as `before` for the next page; null on the last. */
  nextCursor: z.string().nullable(),
});
export type BillingHistoryResponse = z.infer<typeof BillingHistoryResponseSchema>;

/** GET /api/billing/receipts/{paymentId}: our printable receipt of one of the caller's payments. */
export const ReceiptResponseSchema = z.object({
  success: z.literal(true),
  receipt: z.object({
    /** Our receipt number (`DEWY-<yyyymmdd>-<payment id>`). */
    number: z.string(),
    paymentId: z.number().int(),
    kind: z.enum(BILLING_HISTORY_KINDS),
    item: z.string(),
    /** When it was paid (ISO). */
    paidAt: z.string(),
    amount: z.number().int(),
    currency: CurrencySchema,
    method: z.string().nullable(),
    credits: z.number().int(),
    /** Refunded so far (minor units), with the date of the last refund. */
    refunded: z.number().int(),
    refundedAt: z.string().nullable(),
    status: z.enum(['paid', 'refunded', 'partially_refunded']),
    /** Which provider took the payment (`sandbox`, `stripe`, `paddle`, `lemonsqueezy`) and its id of it. */
    provider: z.string(),
    providerPaymentId: z.string(),
    customer: z.object({ email: z.string(), name: z.string().nullable() }),
  }),
});
export type ReceiptResponse = z.infer<typeof ReceiptResponseSchema>;
