import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app';

/** GET /api/site-info: the operator's business details from COMPANY_* / SUPPORT_EMAIL, null where unset. */
describe('site info', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const pglite = TEST_DATABASES[0]!;

  it('answers null for every detail the operator has not configured', async () => {
    t = await createTestApp(pglite);
    const res = await t.app.inject({ url: '/api/site-info' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, company: { name: null, ceo: null, address: null, registrationNo: null, mailOrderNo: null }, supportEmail: null });
  });

  it('answers the configured details, trimmed, to anyone', async () => {
    t = await createTestApp(pglite, {
      COMPANY_NAME: ' 주식회사 듀이 ',
      COMPANY_CEO: '홍길동',
      COMPANY_ADDRESS: '서울특별시 강남구 테헤란로 1',
      COMPANY_REGISTRATION_NO: '123-45-67890',
      COMPANY_MAIL_ORDER_NO: '2026-서울강남-0001',
      SUPPORT_EMAIL: 'help@dewy.example',
    });
    const res = await t.app.inject({ url: '/api/site-info' });
    expect(res.json()).toEqual({
      success: true,
      company: { name: '주식회사 듀이', ceo: '홍길동', address: '서울특별시 강남구 테헤란로 1', registrationNo: '123-45-67890', mailOrderNo: '2026-서울강남-0001' },
      supportEmail: 'help@dewy.example',
    });
  });

  it('refuses a malformed SUPPORT_EMAIL at start-up', () => {
    expect(() => loadConfig({ SUPPORT_EMAIL: 'not-an-address' })).toThrow(/SUPPORT_EMAIL/);
    expect(loadConfig({ SUPPORT_EMAIL: '' }).site.supportEmail).toBeNull();
  });
});
