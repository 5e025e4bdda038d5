import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '@dewy/contracts';
import { loadConfig, missingSellerDetails, sellerDetailsWarning } from './config';

/**
 * Issue 21 point 6 (decision 028): in production the server refuses to start on the sandbox provider —
 * whose test card buys anything for $0 — unless PAYMENTS_SANDBOX_IN_PRODUCTION=true says it is meant;
 * `npm start` (development) keeps starting on its embedded defaults.
 */
describe('the sandbox provider in production', () => {
  const base = { DATA_DIR: '/tmp/dewy-config-test' };

  it.each([
    { name: 'PAYMENTS_PROVIDER unset', env: {} },
    { name: 'PAYMENTS_PROVIDER=sandbox', env: { PAYMENTS_PROVIDER: 'sandbox' } },
    { name: 'PAYMENTS_SANDBOX_IN_PRODUCTION=false', env: { PAYMENTS_SANDBOX_IN_PRODUCTION: 'false' } },
  ])('NODE_ENV=production with $name: config load throws, saying why and what to set', ({ env }) => {
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', ...env })).toThrow(/PAYMENTS_PROVIDER: sandbox.*NODE_ENV=production[\s\S]*\$0[\s\S]*PAYMENTS_PROVIDER=lemonsqueezy or stripe[\s\S]*PAYMENTS_SANDBOX_IN_PRODUCTION=true/);
  });

  it('NODE_ENV=production with PAYMENTS_SANDBOX_IN_PRODUCTION=true starts on the sandbox', () => {
    const c = loadConfig({ ...base, NODE_ENV: 'production', PAYMENTS_SANDBOX_IN_PRODUCTION: 'true' });
    expect(c.env).toBe('production');
    expect(c.payments.provider).toBe('sandbox');
  });

  it('NODE_ENV=production with a real provider loads (a missing key turns buying off, as before)', () => {
    const c = loadConfig({ ...base, NODE_ENV: 'production', PAYMENTS_PROVIDER: 'stripe' });
    expect(c.payments).toMatchObject({ provider: 'stripe', configured: false });
  });

  it('`npm start` (NODE_ENV unset: development) and tests still run on the sandbox by default', () => {
    expect(loadConfig({ ...base }).payments.provider).toBe('sandbox');
    expect(loadConfig({ ...base }).env).toBe('development');
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).payments.provider).toBe('sandbox');
  });
});

/** Decision 040 §3: the loopback switch for webhooks is for tests; production refuses to start with it. */
describe('the webhooks loopback switch', () => {
  const base = { DATA_DIR: '/tmp/dewy-config-test', PAYMENTS_SANDBOX_IN_PRODUCTION: 'true' };
  it('is off by default, allowed outside production, refused in production', () => {
    expect(loadConfig({ ...base }).webhooks.allowLoopback).toBe(false);
    expect(loadConfig({ ...base, WEBHOOKS_ALLOW_LOOPBACK: 'true', NODE_ENV: 'test' }).webhooks.allowLoopback).toBe(true);
    expect(() => loadConfig({ ...base, WEBHOOKS_ALLOW_LOOPBACK: 'true', NODE_ENV: 'production' })).toThrow(/WEBHOOKS_ALLOW_LOOPBACK: a test switch/);
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).webhooks).toEqual({ allowLoopback: false, pollMs: 2000, timeoutMs: 10_000 });
  });
});

describe('the seller\'s details (issue 25)', () => {
  const base = { NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40), PAYMENTS_PROVIDER: 'stripe' };
  const all = { COMPANY_NAME: '듀이 주식회사', COMPANY_CEO: '김듀이', COMPANY_REGISTRATION_NO: '123-45-67890', COMPANY_MAIL_ORDER_NO: '2026-서울강남-0001', COMPANY_ADDRESS: '서울특별시 강남구 테헤란로 1', SUPPORT_EMAIL: 'help@dewy.example' };
  it('production warns loudly naming each missing variable; nothing missing or not production: no warning', () => {
    const missing = loadConfig({ ...base, COMPANY_NAME: '듀이 주식회사', SUPPORT_EMAIL: 'help@dewy.example' });
    expect(missingSellerDetails(missing)).toEqual(['COMPANY_CEO', 'COMPANY_REGISTRATION_NO', 'COMPANY_MAIL_ORDER_NO', 'COMPANY_ADDRESS']);
    const warning = sellerDetailsWarning(missing);
    expect(warning).toContain('WARNING');
    expect(warning).toContain('COMPANY_CEO, COMPANY_REGISTRATION_NO, COMPANY_MAIL_ORDER_NO, COMPANY_ADDRESS');
    expect(sellerDetailsWarning(loadConfig({ ...base, ...all }))).toBeNull();
    expect(sellerDetailsWarning(loadConfig({ NODE_ENV: 'development' }))).toBeNull();
    // Blank values count as missing (the pages then show nothing, never a placeholder).
    expect(missingSellerDetails(loadConfig({ ...base, ...all, COMPANY_ADDRESS: '   ' }))).toEqual(['COMPANY_ADDRESS']);
  });
});

/**
 * Issue 25: prices in dollars and won. PRICE_USD_<ITEM> / PRICE_KRW_<ITEM> override contracts'
 * DEFAULT_PRICES in major units (dollars with up to 2 decimals, whole won), kept in minor units
 * (cents; won, KRW being zero-decimal); a malformed one stops the start naming the variable. Stripe's
 * won prices STRIPE_PRICE_KRW_<ITEM> are all or none: half set, Stripe is not configured and the
 * missing names are listed.
 */
describe('prices in dollars and won', () => {
  const base = { DATA_DIR: '/tmp/dewy-config-test' };
  const stripe = {
    PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_config', STRIPE_WEBHOOK_SECRET: 'whsec_config',
    ...Object.fromEntries(['BASIC', 'DELUXE', 'PREMIUM', 'PACKAGE1', 'PACKAGE2', 'PACKAGE3', 'PACKAGE4', 'PACKAGE5'].map((k) => [`STRIPE_PRICE_${k}`, `price_${k.toLowerCase()}`])),
  };
  const krwNames = ['BASIC', 'DELUXE', 'PREMIUM', 'PACKAGE1', 'PACKAGE2', 'PACKAGE3', 'PACKAGE4', 'PACKAGE5'].map((k) => `STRIPE_PRICE_KRW_${k}`);

  it('overrides are read in major units and kept in minor units; the rest stay the defaults', () => {
    const c = loadConfig({ ...base, PRICE_USD_BASIC: '9.50', PRICE_USD_PACKAGE1: '6', PRICE_KRW_BASIC: '12900', PRICE_KRW_PACKAGE5: ' 45000 ' });
    expect(c.payments.prices.basic).toEqual({ usd: 950, krw: 12_900 });
    expect(c.payments.prices.package1).toEqual({ usd: 600, krw: DEFAULT_PRICES.package1.krw });
    expect(c.payments.prices.package5).toEqual({ usd: DEFAULT_PRICES.package5.usd, krw: 45_000 });
    expect(c.payments.prices.deluxe).toEqual(DEFAULT_PRICES.deluxe);
    expect(loadConfig({ ...base }).payments.prices).toEqual(DEFAULT_PRICES);
  });

  it.each([
    { name: 'PRICE_KRW_BASIC', value: '12.5', why: /PRICE_KRW_BASIC: "12\.5" is not a price in KRW \(a positive amount in whole won\)/ },
    { name: 'PRICE_USD_DELUXE', value: '-1', why: /PRICE_USD_DELUXE: "-1" is not a price in USD \(a positive amount with at most 2 decimals\)/ },
    { name: 'PRICE_KRW_PACKAGE2', value: 'abc', why: /PRICE_KRW_PACKAGE2: "abc"/ },
    { name: 'PRICE_USD_PACKAGE3', value: '9.999', why: /PRICE_USD_PACKAGE3: "9\.999"/ },
    { name: 'PRICE_USD_PREMIUM', value: '0', why: /PRICE_USD_PREMIUM: "0"/ },
    { name: 'PRICE_KRW_PACKAGE4', value: '12,900', why: /PRICE_KRW_PACKAGE4: "12,900"/ },
  ])('$name=$value is refused at start, naming the variable', ({ name, value, why }) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(why);
  });

  it('every malformed override is named at once', () => {
    let message = '';
    try {
      loadConfig({ ...base, PRICE_KRW_BASIC: '12.5', PRICE_USD_DELUXE: '-1', PRICE_KRW_PACKAGE2: 'abc', PRICE_USD_BASIC: '9.50' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration:/);
    for (const name of ['PRICE_KRW_BASIC', 'PRICE_USD_DELUXE', 'PRICE_KRW_PACKAGE2']) expect(message).toContain(name);
    expect(message).not.toContain('PRICE_USD_BASIC');
  });

  it('Stripe without won prices: configured, dollars only; with all eight: configured with won', () => {
    const usd = loadConfig({ ...base, ...stripe });
    expect(usd.payments).toMatchObject({ provider: 'stripe', configured: true, missing: [] });
    expect(usd.payments.stripe.pricesKrw).toBeNull();

    const both = loadConfig({ ...base, ...stripe, ...Object.fromEntries(krwNames.map((n) => [n, `${n.toLowerCase()}_id`])) });
    expect(both.payments).toMatchObject({ configured: true, missing: [] });
    expect(both.payments.stripe.pricesKrw).toMatchObject({ basic: 'stripe_price_krw_basic_id', package5: 'stripe_price_krw_package5_id' });
    expect(both.payments.stripe.krwMethods).toEqual(['card', 'kr_card', 'kakao_pay', 'naver_pay', 'payco', 'samsung_pay']);
    expect(loadConfig({ ...base, ...stripe, STRIPE_KRW_PAYMENT_METHODS: ' kakao_pay, naver_pay ,' }).payments.stripe.krwMethods).toEqual(['kakao_pay', 'naver_pay']);
  });

  it('STRIPE_PRICE_KRW_* half set: Stripe is not configured and the missing won prices are listed', () => {
    const c = loadConfig({ ...base, ...stripe, STRIPE_PRICE_KRW_BASIC: 'price_basic_krw', STRIPE_PRICE_KRW_PACKAGE3: 'price_pack3_krw' });
    expect(c.payments.configured).toBe(false);
    expect(c.payments.missing).toEqual(krwNames.filter((n) => n !== 'STRIPE_PRICE_KRW_BASIC' && n !== 'STRIPE_PRICE_KRW_PACKAGE3'));
  });
});
