import { describe, expect, it } from 'vitest';
import { itIsAPageCatalogue } from '../../../locales/namespace-catalogue';
import en from './en.json';
import ko from './ko.json';

describe('the pricing page’s catalogue (namespace "pricing")', () => {
  itIsAPageCatalogue(ko, en);

  it('names both currencies the same way in both languages and says when only dollars are taken (issue 25)', () => {
    for (const c of [ko, en]) {
      expect(c.pricing.currency.krw).toBe('원 (KRW)');
      expect(c.pricing.currency.usd).toBe('US$ (USD)');
    }
    expect(ko.pricing.currency.usdOnly).toContain('미국 달러(USD)');
    expect(en.pricing.currency.usdOnly).toContain('US dollars');
    // The lead no longer says every price is in dollars.
    expect(`${ko.pricing.lead} ${en.pricing.lead}`).not.toMatch(/USD|달러|dollar/);
  });
});
