import type { Currency } from '@dewy/contracts';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { usePricingT } from '../lib/pricing-copy';

/** Won first: the currency most of the customers pay in (issue 25). */
const ORDER: readonly Currency[] = ['krw', 'usd'];

/**
 * The pricing page's currency (issue 25): a two-option switch when the payment provider takes both,
 * the plain statement that payment is in US dollars when it takes only those, nothing while unknown.
 * @param available the provider's currencies (null until the server has said)
 */
export function CurrencySwitch({ value, available, onChange }: { value: Currency; available: readonly Currency[] | null; onChange: (currency: Currency) => void }) {
  const { t } = usePricingT();
  if (!available) return null;
  if (available.length === 1 && available[0] === 'usd') {
    return (
      <p className="pricing-usd-only" data-testid="pricing-usd-only">
        {t('pricing.currency.usdOnly')}
      </p>
    );
  }
  const options = ORDER.filter((c) => available.includes(c)).map((c) => ({ value: c, label: t(`pricing.currency.${c}`), testId: `pricing-currency-${c}` }));
  if (options.length < 2) return null;
  return (
    <div className="pricing-currency">
      <span className="pricing-currency-label" aria-hidden="true">
        {t('pricing.currency.label')}
      </span>
      <SegmentedControl label={t('pricing.currency.label')} value={value} options={options} onValueChange={onChange} testId="pricing-currency" />
    </div>
  );
}
