import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../../../shared/tool-job/testing/fake-api';
import { chosenCurrency, CURRENCY_STORAGE_KEY, readStoredCurrency, writeStoredCurrency } from './currency-choice';

afterEach(() => vi.unstubAllGlobals());

describe('the pricing page’s currency (issue 25)', () => {
  it('is won in Korean and dollars in English until the visitor picks', () => {
    expect(chosenCurrency(null, 'ko', ['usd', 'krw'])).toBe('krw');
    expect(chosenCurrency(null, 'en', ['usd', 'krw'])).toBe('usd');
    // Before the server has said which it takes, both are assumed.
    expect(chosenCurrency(null, 'ko', null)).toBe('krw');
  });

  it('keeps the visitor’s pick in either language', () => {
    expect(chosenCurrency('usd', 'ko', ['usd', 'krw'])).toBe('usd');
    expect(chosenCurrency('krw', 'en', ['usd', 'krw'])).toBe('krw');
  });

  it('is dollars when the provider takes only dollars, whatever was picked', () => {
    expect(chosenCurrency('krw', 'ko', ['usd'])).toBe('usd');
    expect(chosenCurrency(null, 'ko', ['usd'])).toBe('usd');
  });

  it('ignores a stored value that is no currency', () => {
    expect(chosenCurrency('eur', 'en', ['usd', 'krw'])).toBe('usd');
    expect(chosenCurrency('', 'ko', ['usd', 'krw'])).toBe('krw');
  });

  it('remembers the pick in local storage', () => {
    const storage = memoryStorage();
    vi.stubGlobal('window', { localStorage: storage });
    expect(readStoredCurrency()).toBeNull();
    writeStoredCurrency('usd');
    expect(storage.getItem(CURRENCY_STORAGE_KEY)).toBe('usd');
    expect(readStoredCurrency()).toBe('usd');
  });

  it('works without storage (private mode): nothing is remembered, nothing throws', () => {
    vi.stubGlobal('window', {
      get localStorage(): Storage {
        throw new Error('denied');
      },
    });
    expect(readStoredCurrency()).toBeNull();
    expect(() => writeStoredCurrency('krw')).not.toThrow();
  });
});
