import { describe, expect, it } from 'vitest';
import { readAffiliateParams, withoutAffiliateParams } from './affiliate-params';

describe('share-link parameters (001 §7)', () => {
  it('reads the code and the optional campaign', () => {
    expect(readAffiliateParams('?aff=AbC123_-xyz')).toEqual({ aff: 'AbC123_-xyz', campaign: null });
    expect(readAffiliateParams('?x=1&aff=code1234&campaign=spring%20sale')).toEqual({ aff: 'code1234', campaign: 'spring sale' });
    expect(readAffiliateParams('aff=code1234&campaign=')).toEqual({ aff: 'code1234', campaign: null });
  });

  it('is null without a code', () => {
    expect(readAffiliateParams('')).toBeNull();
    expect(readAffiliateParams('?aff=')).toBeNull();
    expect(readAffiliateParams('?aff=%20%20')).toBeNull();
    expect(readAffiliateParams('?campaign=x')).toBeNull();
  });

  it('removes aff and campaign and keeps the rest in order', () => {
    expect(withoutAffiliateParams('?aff=code1234')).toBe('');
    expect(withoutAffiliateParams('?aff=code1234&campaign=x')).toBe('');
    expect(withoutAffiliateParams('?tab=credits&aff=code1234&campaign=x&next=%2Fpricing')).toBe('?tab=credits&next=%2Fpricing');
    expect(withoutAffiliateParams('?payment=success')).toBe('?payment=success');
    expect(withoutAffiliateParams('')).toBe('');
  });

  it('removes every repetition of the parameters', () => {
    expect(withoutAffiliateParams('?aff=a1234567&aff=b1234567&keep=1')).toBe('?keep=1');
  });
});
