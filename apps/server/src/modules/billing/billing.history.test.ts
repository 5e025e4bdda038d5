import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ERROR_MESSAGES, type BillingHistoryEntry } from '@dewy/contracts';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { paySandboxCheckout, sandboxOperatorAuth } from '../../../test/helpers/billing';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { billingCheckouts, billingPayments } from '../../db/schema';
import { getBalance } from '../credits';
import type { SandboxProvider } from './providers/sandbox.provider';

/**
 * Prices in won beside dollars, the billing history and our receipts (issue 25, decision 041), end to
 * end on the sandbox provider through the real routes, its hosted checkout and signed webhooks, on
 * PGlite and PostgreSQL. The won price of package1 is overridden by configuration to prove that the
 * table in force, not the contracts' default, is what is shown and charged.
 */
describe.each(TEST_DATABASES)('won prices, billing history and receipts on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { PRICE_KRW_PACKAGE1: '7500' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (cookie: string, url: string, payload: object, lang = 'ko') => t.app.inject({ method: 'POST', url, headers: { cookie, 'accept-language': lang }, payload });
  const get = (cookie: string, url: string, lang = 'ko') => t.app.inject({ url, headers: { cookie, 'accept-language': lang } });
  const operator = (action: string, email: string) =>
    t.app.inject({ method: 'POST', url: '/api/admin/billing/sandbox', headers: { authorization: sandboxOperatorAuth(t) }, payload: { action, email } });

  async function buy(cookie: string, body: object, method = 'card', lang = 'ko') {
    const res = await post(cookie, 'plan' in body ? '/api/payment/checkout' : '/api/payment/credit-checkout', body, lang);
    expect(res.statusCode, res.body).toBe(200);
    const { checkout_url } = res.json() as { checkout_url: string };
    const page = await t.app.inject({ url: checkout_url, headers: { 'accept-language': lang } });
    const form = await paySandboxCheckout(t, checkout_url, '4242 4242 4242 4242', method);
    return { page: page.body, form };
  }
  const history = async (cookie: string, before?: string) => {
    const res = await get(cookie, `/api/billing/history${before ? `?before=${encodeURIComponent(before)}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { entries: BillingHistoryEntry[]; nextCursor: string | null };
  };

  it('GET /api/payment/prices: every item in dollars and won with the configured override; both currencies on the sandbox', async () => {
    const res = await t.app.inject({ url: '/api/payment/prices' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.currencies.sort()).toEqual(['krw', 'usd']);
    expect(body.prices.package1).toEqual({ usd: 500, krw: 7500 });
    expect(body.prices.basic).toEqual({ usd: 900, krw: 12600 });
  });

  it('a Korean customer pays a pack in won with Kakao Pay: the configured won price is charged, the same credits granted, the line and our receipt carry won and the method', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const before = (await getBalance(t.ctx.database.db, user.id)).oneTime;
    const { page, form } = await buy(cookie, { package: 'package1' }, 'kakao_pay');
    // The hosted page offered the Korean methods and showed the won price.
    expect(page).toContain('₩7,500');
    expect(page).toContain('data-testid="sandbox-method-kakao_pay"');
    expect(page).toContain('data-testid="sandbox-method-payco"');
    expect(form.statusCode).toBe(303);
    expect((await getBalance(t.ctx.database.db, user.id)).oneTime).toBe(before + 1500);
    const row = (await t.ctx.database.db.select().from(billingPayments).where(eq(billingPayments.userId, user.id)))[0]!;
    expect(row).toMatchObject({ currency: 'krw', amountMinor: 7500, method: 'kakao_pay', creditsGranted: 1500, receiptUrl: null });
    const { entries, nextCursor } = await history(cookie);
    expect(nextCursor).toBeNull();
    expect(entries).toEqual([
      expect.objectContaining({ kind: 'purchase', item: 'package1', amount: 7500, currency: 'krw', method: 'kakao_pay', credits: 1500, receiptUrl: `/mypage/receipts/${row.id}` }),
    ]);
    const rec = await get(cookie, `/api/billing/receipts/${row.id}`);
    expect(rec.statusCode).toBe(200);
    expect(rec.json().receipt).toMatchObject({ paymentId: row.id, kind: 'purchase', amount: 7500, currency: 'krw', method: 'kakao_pay', credits: 1500, status: 'paid', refunded: 0 });
    expect(rec.json().receipt.number).toMatch(new RegExp(`^DEWY-\\d{8}-${String(row.id).padStart(6, '0')}$`));
    // Another account sees neither the receipt nor the line.
    const other = await signUpAndLogin(t.app);
    expect((await get(other.cookie, `/api/billing/receipts/${row.id}`)).statusCode).toBe(404);
    expect((await history(other.cookie)).entries).toEqual([]);
  });

  it('the language picks the currency when none is asked for; a method the checkout does not offer is refused and charges nothing', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const en = await post(cookie, '/api/payment/credit-checkout', { package: 'package2' }, 'en');
    const ko = await post(cookie, '/api/payment/credit-checkout', { package: 'package2' }, 'ko');
    const rows = await t.ctx.database.db.select().from(billingCheckouts).where(eq(billingCheckouts.userId, user.id));
    expect(rows.map((r) => r.currency).sort()).toEqual(['krw', 'usd']);
    // Kakao Pay on a dollar checkout: the page answers 400 with its reason, nothing is paid.
    const usdUrl = (en.json() as { checkout_url: string }).checkout_url;
    const refused = await t.app.inject({ method: 'POST', url: usdUrl, headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' }, payload: 'method=kakao_pay&action=pay' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('That payment method is not offered for this payment.');
    expect(ko.statusCode).toBe(200);
    expect(await t.ctx.database.db.select().from(billingPayments).where(eq(billingPayments.userId, user.id))).toEqual([]);
  });

  it('an unknown currency is a validation error in the caller\'s language and opens no checkout', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const res = await post(cookie, '/api/payment/credit-checkout', { package: 'package1', currency: 'eur' }, 'en');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(await t.ctx.database.db.select().from(billingCheckouts).where(eq(billingCheckouts.userId, user.id))).toEqual([]);
  });

  it('a won subscription bought with Naver Pay renews and upgrades in won; a failed renewal and a refund each get their line, newest first', async () => {
    const { cookie, email } = await signUpAndLogin(t.app);
    await buy(cookie, { plan: 'basic', currency: 'krw' }, 'naver_pay');
    expect((await operator('renew', email)).statusCode).toBe(200);
    const up = await post(cookie, '/api/payment/change-plan', { plan: 'deluxe' });
    expect(up.statusCode, up.body).toBe(200);
    await (t.ctx.payments as unknown as SandboxProvider).idle();
    expect((await operator('fail-renewal', email)).statusCode).toBe(200);
    expect((await operator('refund', email)).statusCode).toBe(200);
    const { entries } = await history(cookie);
    expect(entries.map((e) => e.kind)).toEqual(['refund', 'failed', 'upgrade', 'renewal', 'subscription']);
    for (const e of entries) expect(e.currency).toBe('krw');
    const [refund, failed, upgrade, renewal, first] = entries as [BillingHistoryEntry, BillingHistoryEntry, BillingHistoryEntry, BillingHistoryEntry, BillingHistoryEntry];
    expect(first).toMatchObject({ amount: 12600, method: 'naver_pay', credits: 4500 });
    expect(renewal).toMatchObject({ amount: 12600, method: 'naver_pay', credits: 4500 });
    // The upgrade charged a share of the won price difference (26,600 − 12,600), never dollars.
    expect(upgrade.amount).toBeGreaterThan(0);
    expect(upgrade.amount).toBeLessThanOrEqual(14000);
    expect(failed).toMatchObject({ item: 'deluxe', amount: 26600, credits: 0, receiptUrl: null });
    // The refund (the latest paid invoice: the upgrade) takes its credits back and links the same receipt.
    expect(refund).toMatchObject({ paymentId: upgrade.paymentId, amount: -upgrade.amount, credits: -upgrade.credits, receiptUrl: upgrade.receiptUrl });
    const rec = (await get(cookie, `/api/billing/receipts/${upgrade.paymentId}`)).json().receipt;
    expect(rec).toMatchObject({ status: 'refunded', refunded: upgrade.amount });
    expect(rec.refundedAt).toBe(refund.at);
    // A failed charge has no receipt.
    expect((await get(cookie, `/api/billing/receipts/${failed.paymentId}`)).statusCode).toBe(404);
  });

  it('two plan checkouts in two currencies (a customer switching to play the rates): one checkout, even with 10 requests at once', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(cookie, '/api/payment/checkout', { plan: 'premium', currency: i % 2 ? 'usd' : 'krw' })),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode !== 200);
    for (const r of refused) expect(r.json().code).toBe('CHECKOUT_IN_PROGRESS');
    // Every success is the same open checkout, in one currency; the other currency was refused.
    expect(new Set(ok.map((a) => a.json().checkoutId)).size).toBe(1);
    const rows = await t.ctx.database.db.select().from(billingCheckouts).where(eq(billingCheckouts.userId, user.id));
    expect(rows).toHaveLength(1);
    const other = rows[0]!.currency === 'krw' ? 'usd' : 'krw';
    const again = await post(cookie, '/api/payment/checkout', { plan: 'premium', currency: other }, 'en');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CHECKOUT_IN_PROGRESS', error: ERROR_MESSAGES.CHECKOUT_IN_PROGRESS.en });
    expect((await post(cookie, '/api/payment/checkout', { plan: 'premium', currency: rows[0]!.currency })).json().checkoutId).toBe(rows[0]!.id);
  });

  it('pages of 25, newest first, with a cursor that continues exactly where the page ended; a forged cursor is refused', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const base = Date.parse('2026-01-01T00:00:00Z');
    await t.ctx.database.db.insert(billingPayments).values(
      Array.from({ length: 30 }, (_, i) => ({
        userId: user.id, provider: 'sandbox', kind: 'order' as const, providerId: `hist-${user.id}-${i}`, item: 'package1', reason: 'purchase',
        status: i % 10 === 0 ? 'refunded' : 'paid', amountMinor: 500, refundedMinor: i % 10 === 0 ? 500 : 0, creditsGranted: 1500, creditsReclaimed: i % 10 === 0 ? 1500 : 0,
        bucket: 'one_time' as const, currency: 'usd' as const, method: 'card', createdAt: new Date(base + i * 60_000), refundedAt: i % 10 === 0 ? new Date(base + i * 60_000 + 1000) : null,
      })),
    );
    const first = await history(cookie);
    expect(first.entries).toHaveLength(25);
    expect(first.nextCursor).not.toBeNull();
    const second = await history(cookie, first.nextCursor!);
    expect(second.nextCursor).toBeNull();
    const all = [...first.entries, ...second.entries];
    expect(all).toHaveLength(33);
    expect(new Set(all.map((e) => e.id)).size).toBe(33);
    const times = all.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    const bad = await get(cookie, '/api/billing/history?before=%27%20or%201%3D1', 'en');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: ERROR_MESSAGES.VALIDATION_FAILED.en });
  });
});
