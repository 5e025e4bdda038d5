import type { PackId, PaidPlan } from './billing';
import { CREDIT_PACKS, SUBSCRIPTION_PLANS } from './constants';

/**
 * The zod-free half of the prices (issue 25): currencies, the default price table and how a price is
 * written. It imports no schema, so the landing page can show a plan's price without bringing zod into
 * its first load (decision 025, bundle-budget.test.ts); `prices.ts` re-exports all of it beside the
 * schemas, so callers import either from `@dewy/contracts`.
 *
 * Amounts are integers in the currency's **minor unit** (ISO 4217 exponent, as Stripe and Paddle
 * take them): cents for USD (exponent 2), won for KRW (exponent 0).
 */

/** The currencies a customer can pay in (ISO 4217, lower case as Stripe writes them). */
export const CURRENCIES = ['usd', 'krw'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** ISO 4217 minor-unit exponent: an amount in minor units divided by 10^exponent is in major units. */
export const CURRENCY_EXPONENT: Record<Currency, number> = { usd: 2, krw: 0 };

/** Everything that can be bought: the three plans and the five packs. */
export type CatalogItem = PaidPlan | PackId;

/**
 * The documented rate the default won prices are derived from: ₩1,400 per US dollar (the Bank of
 * Korea's reference rate moved between ₩1,350 and ₩1,480 in 2025–26). Each default is the USD list
 * price × this rate rounded to the nearest ₩100, the step Korean shops price in (₩12,600, ₩7,000).
 * Change a price with configuration, not by editing here.
 */
export const KRW_PER_USD_DEFAULT_RATE = 1400;

/** A USD amount (major units) as a won price at the default rate, rounded to the nearest ₩100. */
export function wonFromUsd(usd: number): number {
  return Math.round((usd * KRW_PER_USD_DEFAULT_RATE) / 100) * 100;
}

/** One item's price in every currency, in minor units. */
export type ItemPrices = Record<Currency, number>;
/** The price table: every plan and pack in every currency (minor units). */
export type PriceTable = Record<CatalogItem, ItemPrices>;

/** The default price table: the spec's USD list (plans, then packs), and won derived from it by {@link wonFromUsd}. */
export const DEFAULT_PRICES: PriceTable = Object.fromEntries(
  Object.entries({ ...SUBSCRIPTION_PLANS, ...CREDIT_PACKS }).map(([item, { priceUsd }]) => [item, { usd: priceUsd * 100, krw: wonFromUsd(priceUsd) }]),
) as PriceTable;

/** An amount in minor units as a number in major units (900 usd → 9; 12900 krw → 12900). */
export function toMajorUnits(amountMinor: number, currency: Currency): number {
  return amountMinor / 10 ** CURRENCY_EXPONENT[currency];
}

/**
 * A price for people: '$9', '$9.50', '₩12,900' in the language's grouping. The amount is in minor units.
 */
export function formatPrice(amountMinor: number, currency: Currency, locale: 'ko' | 'en'): string {
  const major = toMajorUnits(amountMinor, currency);
  const fraction = currency === 'usd' && !Number.isInteger(major) ? 2 : 0;
  return new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'ko-KR', {
    style: 'currency',
    currency: currency.toUpperCase(),
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: fraction,
    maximumFractionDigits: fraction,
  }).format(major);
}

/** The currency a page in this language shows first: won in Korean, dollars in English (issue 25). */
export function defaultCurrency(locale: 'ko' | 'en', available: readonly Currency[]): Currency {
  const want: Currency = locale === 'ko' ? 'krw' : 'usd';
  return available.includes(want) ? want : (available[0] ?? 'usd');
}
