import { describe, expect, it } from 'vitest';
import { billingItem, parseReceiptId, receiptLink, sellerRows, signedAmount } from './billing-lines';

const NO_COMPANY = { name: null, ceo: null, address: null, registrationNo: null, mailOrderNo: null };

describe('billing lines (issue 25)', () => {
  it('names plans and packs from their catalogues, anything else as sent', () => {
    expect(billingItem('deluxe')).toEqual({ kind: 'plan', plan: 'deluxe' });
    expect(billingItem('package3')).toEqual({ kind: 'pack', pack: 'package3' });
    expect(billingItem('gift-card')).toEqual({ kind: 'other', id: 'gift-card' });
  });

  it('shows refunds as money going back', () => {
    expect(signedAmount({ kind: 'refund', amount: 12_600 })).toBe(-12_600);
    expect(signedAmount({ kind: 'refund', amount: -500 })).toBe(-500);
    expect(signedAmount({ kind: 'purchase', amount: 7000 })).toBe(7000);
    expect(signedAmount({ kind: 'failed', amount: 900 })).toBe(900);
  });

  it('opens the provider’s receipt in a new tab and ours inside the site; nothing else is a link', () => {
    expect(receiptLink('https://pay.stripe.com/receipts/acct_1/rcpt_2')).toEqual({ kind: 'external', href: 'https://pay.stripe.com/receipts/acct_1/rcpt_2' });
    expect(receiptLink('/mypage/receipts/42')).toEqual({ kind: 'internal', path: '/mypage/receipts/42' });
    expect(receiptLink('/api/billing/receipts/42/provider')).toEqual({ kind: 'external', href: '/api/billing/receipts/42/provider' });
    expect(receiptLink(null)).toBeNull();
    expect(receiptLink('')).toBeNull();
    expect(receiptLink('javascript:alert(1)')).toBeNull();
    expect(receiptLink('//evil.example/x')).toBeNull();
    expect(receiptLink('/\\evil.example')).toBeNull();
    expect(receiptLink('receipts/42')).toBeNull();
  });

  it('reads a receipt id from the address only when it is a positive whole number', () => {
    expect(parseReceiptId('42')).toBe(42);
    expect(parseReceiptId('0')).toBeNull();
    expect(parseReceiptId('-3')).toBeNull();
    expect(parseReceiptId('4.2')).toBeNull();
    expect(parseReceiptId('abc')).toBeNull();
    expect(parseReceiptId('99999999999999999')).toBeNull();
    expect(parseReceiptId(undefined)).toBeNull();
  });

  it('shows only the seller details that are set, none when none is', () => {
    expect(sellerRows(NO_COMPANY, null)).toEqual([]);
    expect(sellerRows({ ...NO_COMPANY, address: '  ' }, '')).toEqual([]);
    expect(sellerRows({ ...NO_COMPANY, name: '듀이 주식회사', registrationNo: '123-45-67890' }, 'help@dewy.example')).toEqual([
      ['name', '듀이 주식회사'],
      ['registrationNo', '123-45-67890'],
      ['email', 'help@dewy.example'],
    ]);
    expect(sellerRows({ name: 'A', ceo: 'B', address: 'C', registrationNo: 'D', mailOrderNo: 'E' }, 'F').map(([k]) => k)).toEqual(['name', 'ceo', 'registrationNo', 'mailOrderNo', 'address', 'email']);
  });
});
