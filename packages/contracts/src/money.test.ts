import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOG_ITEMS, DEFAULT_PRICES, defaultCurrency, formatPrice, itemCredits, wonFromUsd } from './index';

describe('money (the zod-free prices)', () => {
  it('derives the default table from the USD list, every plan and pack in both currencies', () => {
    expect(Object.keys(DEFAULT_PRICES)).toEqual([...CATALOG_ITEMS]);
    expect(DEFAULT_PRICES.basic).toEqual({ usd: 900, krw: 12_600 });
    expect(DEFAULT_PRICES.premium).toEqual({ usd: 2900, krw: 40_600 });
    expect(DEFAULT_PRICES.package1).toEqual({ usd: 500, krw: 7000 });
    expect(DEFAULT_PRICES.package5).toEqual({ usd: 3000, krw: 42_000 });
    expect(wonFromUsd(9.5)).toBe(13_300);
    expect(itemCredits('package5')).toBe(9750);
  });

  it('writes prices as people read them, in the language’s grouping', () => {
    expect(formatPrice(900, 'usd', 'en')).toBe('$9');
    expect(formatPrice(950, 'usd', 'ko')).toBe('$9.50');
    expect(formatPrice(12_600, 'krw', 'ko')).toBe('₩12,600');
    expect(formatPrice(12_600, 'krw', 'en')).toBe('₩12,600');
  });

  it('shows won in Korean and dollars in English, when the provider takes them', () => {
    expect(defaultCurrency('ko', ['usd', 'krw'])).toBe('krw');
    expect(defaultCurrency('en', ['usd', 'krw'])).toBe('usd');
    expect(defaultCurrency('ko', ['usd'])).toBe('usd');
  });

  it('imports no schema library, so the landing page can show a price without zod (bundle-budget.test.ts)', () => {
    const source = fs.readFileSync(path.join(import.meta.dirname, 'money.ts'), 'utf8');
    const imports = [...source.matchAll(/^import\s+(type\s+)?[^;]*from\s+'([^']+)'/gm)].filter((m) => !m[1]).map((m) => m[2]);
    expect(imports).toEqual(['./constants']);
    expect(fs.readFileSync(path.join(import.meta.dirname, 'constants.ts'), 'utf8')).not.toMatch(/from 'zod'/);
  });
});
