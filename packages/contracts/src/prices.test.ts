import { describe, expect, it } from 'vitest';
import { PACK_IDS, PAID_PLANS, packCredits, planCredits } from './billing';
import { CREDIT_PACKS, SUBSCRIPTION_PLANS } from './constants';
import {
  CATALOG_ITEMS,
  CURRENCIES,
  CURRENCY_EXPONENT,
  DEFAULT_PRICES,
  defaultCurrency,
  formatPrice,
  itemCredits,
  KRW_ONE_TIME_METHODS,
  KRW_PER_USD_DEFAULT_RATE,
  KRW_SUBSCRIPTION_METHODS,
  parseMajorUnits,
  paymentMethodName,
  PricesResponseSchema,
  toMajorUnits,
  wonFromUsd,
} from './prices';

/**
 * The price table of issue 25 (decision 041): every plan and pack in dollars and won, in minor units
 * (cents; won, KRW having no minor unit), won defaults derived from the USD list at ₩1,400/$ rounded to
 * ₩100, the same credits in both currencies, and the parsing and formatting around it.
 */
describe('the price table', () => {
  it('every plan and pack, and nothing else, has a USD and a KRW price: positive integers in minor units', () => {
    expect([...CATALOG_ITEMS].sort()).toEqual([...PAID_PLANS, ...PACK_IDS].sort());
    expect(Object.keys(DEFAULT_PRICES).sort()).toEqual([...CATALOG_ITEMS].sort());
    for (const item of CATALOG_ITEMS) {
      expect(Object.keys(DEFAULT_PRICES[item]).sort(), item).toEqual([...CURRENCIES].sort());
      for (const c of CURRENCIES) {
        expect(Number.isInteger(DEFAULT_PRICES[item][c]), `${item} ${c}`).toBe(true);
        expect(DEFAULT_PRICES[item][c], `${item} ${c}`).toBeGreaterThan(0);
      }
    }
    expect(CURRENCY_EXPONENT).toEqual({ usd: 2, krw: 0 });
  });

  it('USD is the spec list in cents', () => {
    for (const plan of PAID_PLANS) expect(DEFAULT_PRICES[plan].usd).toBe(SUBSCRIPTION_PLANS[plan].priceUsd * 100);
    for (const pack of PACK_IDS) expect(DEFAULT_PRICES[pack].usd).toBe(CREDIT_PACKS[pack].priceUsd * 100);
  });

  it('won defaults are the USD price × ₩1,400 rounded to ₩100', () => {
    expect(KRW_PER_USD_DEFAULT_RATE).toBe(1400);
    for (const item of CATALOG_ITEMS) {
      const { usd, krw } = DEFAULT_PRICES[item];
      expect(krw, item).toBe(Math.round(((usd / 100) * 1400) / 100) * 100);
      expect(krw % 100, item).toBe(0);
      expect(Math.abs(krw - (usd / 100) * 1400), item).toBeLessThanOrEqual(50);
    }
    expect(Object.fromEntries(CATALOG_ITEMS.map((i) => [i, DEFAULT_PRICES[i].krw]))).toEqual({
      basic: 12_600, deluxe: 26_600, premium: 40_600, package1: 7_000, package2: 14_000, package3: 21_000, package4: 28_000, package5: 42_000,
    });
    // Rounding to the nearest ₩100: $9.99 → ₩13,986 → ₩14,000; $0.52 → ₩728 → ₩700; $0.54 → ₩756 → ₩800.
    expect([wonFromUsd(9.99), wonFromUsd(0.52), wonFromUsd(0.54)]).toEqual([14_000, 700, 800]);
  });

  it('credits are the same in every currency: the plan\'s or the pack\'s, as the webhooks grant them', () => {
    for (const plan of PAID_PLANS) {
      expect(itemCredits(plan)).toBe(SUBSCRIPTION_PLANS[plan].credits);
      expect(itemCredits(plan)).toBe(planCredits(plan));
    }
    for (const pack of PACK_IDS) {
      expect(itemCredits(pack)).toBe(CREDIT_PACKS[pack].credits);
      expect(itemCredits(pack)).toBe(packCredits(pack));
    }
    // The credits depend on the item only: itemCredits takes no currency.
    expect(itemCredits.length).toBe(1);
  });

  it('GET /api/payment/prices answers the table with at least one currency', () => {
    expect(PricesResponseSchema.parse({ success: true, prices: DEFAULT_PRICES, currencies: ['usd', 'krw'] }).currencies).toEqual(['usd', 'krw']);
    expect(PricesResponseSchema.safeParse({ success: true, prices: DEFAULT_PRICES, currencies: [] }).success).toBe(false);
    expect(PricesResponseSchema.safeParse({ success: true, prices: DEFAULT_PRICES, currencies: ['eur'] }).success).toBe(false);
    expect(PricesResponseSchema.safeParse({ success: true, prices: { ...DEFAULT_PRICES, basic: { usd: 9.5, krw: 12_600 } }, currencies: ['usd'] }).success).toBe(false);
  });
});

describe('amounts for people and from configuration', () => {
  it.each(['ko', 'en'] as const)('formatPrice in %s: $9, $9.50, ₩12,600', (locale) => {
    expect(formatPrice(900, 'usd', locale)).toBe('$9');
    expect(formatPrice(950, 'usd', locale)).toBe('$9.50');
    expect(formatPrice(905, 'usd', locale)).toBe('$9.05');
    expect(formatPrice(12_600, 'krw', locale)).toBe('₩12,600');
    expect(formatPrice(1_000_000, 'krw', locale)).toBe('₩1,000,000');
    expect(formatPrice(700, 'krw', locale)).toBe('₩700');
  });

  it('toMajorUnits: cents to dollars, won stays won', () => {
    expect(toMajorUnits(950, 'usd')).toBe(9.5);
    expect(toMajorUnits(12_600, 'krw')).toBe(12_600);
  });

  it.each([
    ['9', 'usd', 900],
    ['9.5', 'usd', 950],
    ['9.50', 'usd', 950],
    ['0.01', 'usd', 1],
    [' 19 ', 'usd', 1900],
    ['99999.99', 'usd', 9_999_999],
    ['12900', 'krw', 12_900],
    ['12900.0', 'krw', 12_900],
    ['12900.00', 'krw', 12_900],
    ['1', 'krw', 1],
  ] as const)('parseMajorUnits(%j, %s) = %d', (text, currency, minor) => {
    expect(parseMajorUnits(text, currency)).toBe(minor);
  });

  it.each([
    ['12.5', 'krw'],
    ['12900.01', 'krw'],
    ['9.999', 'usd'],
    ['-1', 'usd'],
    ['-1', 'krw'],
    ['0', 'usd'],
    ['0.00', 'usd'],
    ['0', 'krw'],
    ['abc', 'usd'],
    ['', 'krw'],
    ['12,900', 'krw'],
    ['1e3', 'usd'],
    ['+5', 'usd'],
    ['.5', 'usd'],
    ['5.', 'usd'],
    ['1000000000', 'krw'],
    ['$9', 'usd'],
    ['₩12900', 'krw'],
  ] as const)('parseMajorUnits(%j, %s) is refused', (text, currency) => {
    expect(parseMajorUnits(text, currency)).toBeNull();
  });
});

describe('currencies and methods offered', () => {
  it('a Korean page shows won first, an English one dollars, when the provider takes them', () => {
    expect(defaultCurrency('ko', ['usd', 'krw'])).toBe('krw');
    expect(defaultCurrency('en', ['usd', 'krw'])).toBe('usd');
    expect(defaultCurrency('ko', ['usd'])).toBe('usd');
    expect(defaultCurrency('en', ['krw'])).toBe('krw');
    expect(defaultCurrency('ko', [])).toBe('usd');
  });

  it('a subscription in won takes card, Korean cards, Kakao Pay and Naver Pay; PAYCO and Samsung Pay only once', () => {
    expect([...KRW_SUBSCRIPTION_METHODS]).toEqual(['card', 'kr_card', 'kakao_pay', 'naver_pay']);
    expect([...KRW_ONE_TIME_METHODS]).toEqual(['card', 'kr_card', 'kakao_pay', 'naver_pay', 'payco', 'samsung_pay']);
    for (const m of KRW_SUBSCRIPTION_METHODS) expect(KRW_ONE_TIME_METHODS).toContain(m);
  });

  it('method names in each language; an unknown method as the provider wrote it', () => {
    expect(paymentMethodName('kakao_pay', 'ko')).toBe('카카오페이');
    expect(paymentMethodName('kakao_pay', 'en')).toBe('Kakao Pay');
    expect(paymentMethodName('kr_card', 'ko')).toBe('국내 카드');
    expect(paymentMethodName('toss_pay', 'en')).toBe('toss_pay');
    expect(paymentMethodName(null, 'ko')).toBe('');
  });
});
