import { defaultCurrency, formatPrice } from '@dewy/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePrices } from '../../../lib/prices';
import { useLocale } from '../../../lib/use-locale';

/**
 * Plan teaser (spec 000 §2). The landing figures 4,000 / 8,500 / 13,000 differ from the pricing page;
 * the spec keeps both readings and the pricing figures govern purchases. Each plan's monthly price is in
 * the language's currency (won in Korean, dollars in English, issue 25) when the provider takes it.
 */
const TEASER = [
  { plan: 'basic', credits: 4000 },
  { plan: 'deluxe', credits: 8500 },
  { plan: 'premium', credits: 13000 },
] as const;

export function PlanTeaser() {
  const { t, i18n } = useTranslation();
  const { lp, locale } = useLocale();
  const { table, currencies } = usePrices();
  const currency = defaultCurrency(locale, currencies ?? ['usd', 'krw']);
  const nf = new Intl.NumberFormat(i18n.language === 'en' ? 'en-US' : 'ko-KR');
  return (
    <section className="plan-teaser" aria-labelledby="plan-teaser-title">
      <div className="container">
        <h2 id="plan-teaser-title">{t('landing.plans.title')}</h2>
        <p className="teaser-lead">{t('landing.plans.lead')}</p>
        <div className="plan-grid">
          {TEASER.map((p) => (
            <Link key={p.plan} to={lp('/pricing')} className={`plan-card card plan-${p.plan}`} data-testid={`plan-teaser-${p.plan}`}>
              <span className="plan-name">{t(`plans.${p.plan}`)}</span>
              <span className="plan-price" data-testid={`plan-teaser-price-${p.plan}`}>
                {formatPrice(table[p.plan][currency], currency, locale)}
                <small>{t('landing.plans.perMonth')}</small>
              </span>
              <span className="plan-credits">
                {nf.format(p.credits)} <small>{t('landing.plans.creditsPerMonth')}</small>
              </span>
              <span className="plan-images">{t('landing.plans.approxImages', { n: nf.format(Math.floor(p.credits / 100)) })}</span>
            </Link>
          ))}
        </div>
        <div className="teaser-cta">
          <Link to={lp('/pricing')} className="btn btn-secondary" data-testid="plan-teaser-link">
            {t('landing.plans.cta')}
          </Link>
        </div>
      </div>
    </section>
  );
}
