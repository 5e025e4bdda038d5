import { useTranslation } from 'react-i18next';
import { i18n } from '../../../lib/i18n';
import en from '../locales/en.json';
import ko from '../locales/ko.json';

/**
 * The words of My Page's billing history and of the receipt page (issue 25) live in their own
 * namespace, shipped with those pages' chunks (features/mypage/locales/{ko,en}.json), as the batch and
 * pricing pages' do (decision 040 §5): the app's catalogues are on the landing route's first-load budget.
 */
export const BILLING_NS = 'mypage-billing';

for (const [lng, resources] of [
  ['ko', ko],
  ['en', en],
] as const) {
  if (!i18n.hasResourceBundle(lng, BILLING_NS)) i18n.addResourceBundle(lng, BILLING_NS, resources);
}

/** `t` of the billing history and the receipt: their own keys (`billing.*`) first, then the app's catalogue. */
export function useBillingTranslation() {
  return useTranslation([BILLING_NS, 'translation'], { nsMode: 'fallback' });
}
