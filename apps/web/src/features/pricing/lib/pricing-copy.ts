import type { Locale } from '@dewy/contracts';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../lib/i18n';
import en from '../locales/en.json';
import ko from '../locales/ko.json';

/**
 * The pricing page's words live in their own i18next namespace, shipped with the page's chunk
 * (features/pricing/locales/{ko,en}.json), as the batch page's do (decision 040 §5): the app's
 * catalogues are part of the landing route's first-load budget (bundle-budget.test.ts), and issue 25's
 * price texts had no room there. Both languages are added when the page's code loads, so the fixed-
 * language variants (/pricing/en on a Korean path) need no fetch for them.
 */
export const PRICING_NS = 'pricing';

for (const [lng, resources] of [
  ['ko', ko],
  ['en', en],
] as const) {
  if (!i18n.hasResourceBundle(lng, PRICING_NS)) i18n.addResourceBundle(lng, PRICING_NS, resources);
}

/**
 * The language of the pricing page's content. /pricing/en and /pricing/kr fix it (English even on a
 * Korean path, spec 000 §2); /pricing and /en/pricing follow the site's language (undefined).
 */
export const PricingLocaleContext = createContext<Locale | undefined>(undefined);

/**
 * `t` in the pricing content language — the page's own keys (`pricing.*`) first, then the app's
 * catalogue (plan and pack names, `common.*`) — and that language.
 */
export function usePricingT() {
  const forced = useContext(PricingLocaleContext);
  const { t, i18n: instance } = useTranslation([PRICING_NS, 'translation'], { lng: forced, nsMode: 'fallback' });
  const locale: Locale = forced ?? (instance.language === 'en' ? 'en' : 'ko');
  return { t, locale, forced };
}
