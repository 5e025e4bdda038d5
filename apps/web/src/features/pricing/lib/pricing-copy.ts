import type { Locale } from '@dewy/contracts';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The language of the pricing page's content. /pricing/en and /pricing/kr fix it (English even on a
 * Korean path, spec 000 §2); /pricing and /en/pricing follow the site's language (undefined).
 */
export const PricingLocaleContext = createContext<Locale | undefined>(undefined);

/** `t` in the pricing content language, and that language. */
export function usePricingT() {
  const forced = useContext(PricingLocaleContext);
  const { t, i18n } = useTranslation(undefined, { lng: forced });
  const locale: Locale = forced ?? (i18n.language === 'en' ? 'en' : 'ko');
  return { t, locale, forced };
}
