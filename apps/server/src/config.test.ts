import { describe, expect, it } from 'vitest';
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
