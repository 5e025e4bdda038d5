import type { BillingHistoryResponse, ReceiptResponse } from '@dewy/contracts';
import { BillingHistoryResponseSchema, ReceiptResponseSchema } from '@dewy/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { installFakeApi } from '../../../shared/tool-job/testing/fake-api';
import { fetchBillingHistory, fetchReceipt, isReceiptNotFound } from './billing';

afterEach(() => vi.unstubAllGlobals());

const PAGE: BillingHistoryResponse = {
  success: true,
  entries: [
    { id: 'r7', paymentId: 7, kind: 'refund', item: 'package1', at: '2026-11-27T05:00:00.000Z', amount: 7000, currency: 'krw', method: 'kakao_pay', credits: -1500, receiptUrl: '/mypage/receipts/7' },
    { id: 'p7', paymentId: 7, kind: 'purchase', item: 'package1', at: '2026-11-26T05:00:00.000Z', amount: 7000, currency: 'krw', method: 'kakao_pay', credits: 1500, receiptUrl: '/mypage/receipts/7' },
  ],
  nextCursor: 'c-7',
};

const RECEIPT: ReceiptResponse = {
  success: true,
  receipt: {
    number: 'DEWY-20261126-7', paymentId: 7, kind: 'purchase', item: 'package1', paidAt: '2026-11-26T05:00:00.000Z', amount: 7000, currency: 'krw',
    method: 'kakao_pay', credits: 1500, refunded: 0, refundedAt: null, status: 'paid', provider: 'sandbox', providerPaymentId: 'sb_pay_1',
    customer: { email: 'kim@example.com', name: '김듀이' },
  },
};

describe('the billing calls (issue 25)', () => {
  it('reads the history page by page with the server’s cursor', async () => {
    const api = installFakeApi(({ query }) => ({ body: query.get('before') ? { ...PAGE, entries: [], nextCursor: null } : PAGE }));
    const first = await fetchBillingHistory(null);
    expect(BillingHistoryResponseSchema.parse(first)).toEqual(PAGE);
    await fetchBillingHistory(first.nextCursor);
    expect(api.calls.map((c) => `${c.method} ${c.path}?${c.query.toString()}`)).toEqual(['GET /api/billing/history?', 'GET /api/billing/history?before=c-7']);
  });

  it('reads one receipt by its payment id', async () => {
    const api = installFakeApi(() => ({ body: RECEIPT }));
    expect(ReceiptResponseSchema.parse(await fetchReceipt(7))).toEqual(RECEIPT);
    expect(api.calls.map((c) => c.path)).toEqual(['/api/billing/receipts/7']);
  });

  it('takes another account’s or an unknown receipt (404) for “not found”, in the user’s language, and nothing else', async () => {
    installFakeApi(() => ({ status: 404, body: { success: false, code: 'NOT_FOUND', message: '찾을 수 없습니다.' } }));
    const err = await fetchReceipt(8).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('찾을 수 없습니다.');
    expect(isReceiptNotFound(err)).toBe(true);
    expect(isReceiptNotFound(new ApiError(500, 'INTERNAL', 'x', undefined, null))).toBe(false);
    expect(isReceiptNotFound(new ApiError(0, 'NETWORK', 'x', undefined, null))).toBe(false);
  });
});
