import { DEFAULT_PRICES, type Currency, type PriceTable, type PricesResponse } from '@dewy/contracts';
import { api } from './api-client';
import { createSharedResource } from './shared-resource';

/** GET /api/payment/prices: the price table in force and the currencies the payment provider takes (issue 25). */
export function fetchPrices(): Promise<PricesResponse> {
  return api.get('/api/payment/prices', { skipAuthEvent: true });
}

const usePricesResource = createSharedResource(fetchPrices, { staleMs: 10 * 60_000, retries: 1 });

export interface Prices {
  /** Every plan and pack in every currency (minor units): the server's table, contracts' defaults until it answers. */
  table: PriceTable;
  /** The currencies a checkout can be opened in now; null until the server has said (or when it could not). */
  currencies: readonly Currency[] | null;
}

/** What the page shows for an answer (or none yet): the defaults stand in, so no price flashes. */
export function pricesFrom(answer: PricesResponse | undefined): Prices {
  return answer ? { table: answer.prices, currencies: answer.currencies } : { table: DEFAULT_PRICES, currencies: null };
}

/**
 * The prices of the pricing page and the landing page's plan teaser. One fetch shared by every
 * component without React Query, which stays off the landing route's first load (decision 025), as
 * the footer's site details do; the contracts' default table stands in while it loads.
 */
export function usePrices(): Prices {
  return pricesFrom(usePricesResource().data);
}
