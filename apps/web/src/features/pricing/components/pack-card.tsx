import { CREDIT_PACKS, type PackId } from '@dewy/contracts';
import { formatNumber, formatUsd } from '../../../lib/format';
import { approxImages } from '../lib/credit-math';
import { usePricingT } from '../lib/pricing-copy';

/** One one-time credit pack: name, USD price, credits; buying needs login (000 §4). */
export function PackCard({ pack, busy, locked, disabled, onBuy }: { pack: PackId; busy: boolean; locked: boolean; disabled: boolean; onBuy: (pack: PackId) => void }) {
  const { t, locale } = usePricingT();
  const { priceUsd, credits } = CREDIT_PACKS[pack];
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
        <p className="pack-card-price">{formatUsd(priceUsd)}</p>
        <button type="button" className="btn btn-primary btn-block" disabled={busy || locked || disabled} aria-busy={busy} onClick={() => onBuy(pack)} data-testid={`pack-buy-${pack}`}>
          {busy ? <span className="btn-spinner" aria-hidden="true" /> : null}
          {busy ? t('pricing.button.busy') : t('pricing.button.buy')}
        </button>
      </div>
    </article>
  );
}
