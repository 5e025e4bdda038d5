import { CREDIT_PACKS, formatPrice, type Currency, type PackId } from '@dewy/contracts';
import { formatNumber } from '../../../lib/format';
import { approxImages } from '../lib/credit-math';
import { usePricingT } from '../lib/pricing-copy';

/**
 * One one-time credit pack: name, price in the page's currency (minor units), credits (the same in
 * every currency); buying needs login (000 §4).
 */
export function PackCard({ pack, amount, currency, busy, locked, disabled, onBuy }: { pack: PackId; amount: number; currency: Currency; busy: boolean; locked: boolean; disabled: boolean; onBuy: (pack: PackId) => void }) {
  const { t, locale } = usePricingT();
  const { credits } = CREDIT_PACKS[pack];
  const images = approxImages(credits);
  return (
    <article className="pack-card card" data-testid={`pack-card-${pack}`}>
      <div className="pack-card-info">
        <h3 className="pack-card-name">{t(`packs.${pack}`)}</h3>
        <p className="pack-card-credits">{t('pricing.credits', { n: formatNumber(credits, locale) })}</p>
        <p className="pack-card-images">{t('pricing.approxImages', { min: formatNumber(images.min, locale), max: formatNumber(images.max, locale) })}</p>
        <span className="ui-badge ui-badge-muted pack-card-keep">{t('pricing.packNeverExpires')}</span>
      </div>
      <div className="pack-card-buy">
        <p className="pack-card-price" data-testid={`pack-price-${pack}`} data-currency={currency}>
          {formatPrice(amount, currency, locale)}
        </p>
        <button type="button" className="btn btn-primary btn-block" disabled={busy || locked || disabled} aria-busy={busy} onClick={() => onBuy(pack)} data-testid={`pack-buy-${pack}`}>
          {busy ? <span className="btn-spinner" aria-hidden="true" /> : null}
          {busy ? t('pricing.button.busy') : t('pricing.button.buy')}
        </button>
      </div>
    </article>
  );
}
