import { describe, expect, it } from 'vitest';
import { BILLING_HISTORY_KINDS } from '@dewy/contracts';
import { itIsAPageCatalogue } from '../../../locales/namespace-catalogue';
import en from './en.json';
import ko from './ko.json';

describe('the billing history’s and receipts’ catalogue (namespace "mypage-billing")', () => {
  itIsAPageCatalogue(ko, en);

  it('names every kind of billing line the server sends', () => {
    for (const c of [ko, en]) expect(Object.keys(c.billing.kind).sort()).toEqual([...BILLING_HISTORY_KINDS].sort());
  });
});
