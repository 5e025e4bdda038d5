import type { TFunction } from 'i18next';
import { billingItem } from '../lib/billing-lines';

/** What was bought, in words: '디럭스 플랜', 'Starter credit pack'; an item the page does not know as sent. */
export function itemText(t: TFunction, item: string): string {
  const it = billingItem(item);
  if (it.kind === 'plan') return t('billing.itemPlan', { plan: t(`plans.${it.plan}`) });
  if (it.kind === 'pack') return t('billing.itemPack', { pack: t(`packs.${it.pack}`) });
  return it.id;
}
