import { useTranslation } from 'react-i18next';
import { i18n } from '../../../lib/i18n';
import en from '../locales/en.json';
import ko from '../locales/ko.json';

/**
 * The batch page's words live in their own i18next namespace, shipped with the page's chunk
 * (features/batch/locales/{ko,en}.json): the app's catalogues are part of the landing route's
 * first-load budget (decision 025, bundle-budget.test.ts), which has no room for a whole page's strings.
 * Both languages are added when the page's code loads, so switching language needs no fetch; the
 * bundles are under their own namespace, so the app's catalogues still load through their backend.
 */
export const BATCH_NS = 'batch';

for (const [lng, resources] of [
  ['ko', ko],
  ['en', en],
] as const) {
  if (!i18n.hasResourceBundle(lng, BATCH_NS)) i18n.addResourceBundle(lng, BATCH_NS, resources);
}

/**
 * `t` of the batch page: its own keys (`batch.*`) first, then the app's catalogue (upscale options,
 * size badge, shared tool messages).
 */
export function useBatchTranslation() {
  return useTranslation([BATCH_NS, 'translation'], { nsMode: 'fallback' });
}
