import type { CheckoutStatusResponse } from '@dewy/contracts';
import type { TFunction } from 'i18next';

/** What a checkout bought, as the payment pages name it ('스타터 크레딧 팩', 'Basic monthly plan'); null if unknown. */
export function purchaseLabel(checkout: CheckoutStatusResponse, t: TFunction): string | null {
  if (checkout.kind === 'pack' && checkout.package) return t('payment.purchasePack', { name: t(`packs.${checkout.package}`) });
  if (checkout.kind === 'plan' && checkout.plan) return t('payment.purchasePlan', { plan: t(`plans.${checkout.plan}`) });
  return null;
}
