import { describe, expect, it } from 'vitest';
import { readPageParams, withoutParams } from './page-params';

describe('My Page address parameters (001 §2)', () => {
  it('reads payment=success and refresh', () => {
    expect(readPageParams('?payment=success')).toEqual({ paymentSuccess: true, refresh: null });
    expect(readPageParams('?payment=failed')).toEqual({ paymentSuccess: false, refresh: null });
    expect(readPageParams('?refresh=1767225600000')).toEqual({ paymentSuccess: false, refresh: '1767225600000' });
    expect(readPageParams('?refresh=')).toEqual({ paymentSuccess: false, refresh: '' });
    expect(readPageParams('')).toEqual({ paymentSuccess: false, refresh: null });
  });

  it('removes a parameter and keeps the others', () => {
    expect(withoutParams('?refresh=1', ['refresh'])).toBe('');
    expect(withoutParams('?payment=success&refresh=1', ['refresh'])).toBe('?payment=success');
    expect(withoutParams('?a=1&payment=success&b=2', ['payment'])).toBe('?a=1&b=2');
  });
});
