import { CURRENCIES, defaultCurrency, type Currency, type Locale } from '@dewy/contracts';
import { useCallback, useState } from 'react';

/** Local storage key of the currency a visitor picked on the pricing page (issue 25). */
export const CURRENCY_STORAGE_KEY = 'currency';

function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

/**
 * The currency the pricing page shows and checks out in: the visitor's own pick when the provider
 * takes it, else the language's (won in Korean, dollars in English; `defaultCurrency`).
 * @param available the provider's currencies; null while unknown (both are assumed meanwhile)
 */
export function chosenCurrency(stored: string | null, locale: Locale, available: readonly Currency[] | null): Currency {
  const offered = available ?? CURRENCIES;
  return isCurrency(stored) && offered.includes(stored) ? stored : defaultCurrency(locale, offered);
}

export function readStoredCurrency(): string | null {
  try {
    return window.localStorage.getItem(CURRENCY_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function writeStoredCurrency(currency: Currency): void {
  try {
    window.localStorage.setItem(CURRENCY_STORAGE_KEY, currency);
  } catch {
    // Private mode: the pick lasts for this page only.
  }
}

/** The currency in force and a setter that remembers the pick (local storage). */
export function useCurrencyChoice(locale: Locale, available: readonly Currency[] | null): [Currency, (currency: Currency) => void] {
  const [stored, setStored] = useState(readStoredCurrency);
  const choose = useCallback((currency: Currency) => {
    writeStoredCurrency(currency);
    setStored(currency);
  }, []);
  return [chosenCurrency(stored, locale, available), choose];
}
