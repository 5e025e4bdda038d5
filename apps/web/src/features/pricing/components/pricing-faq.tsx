import { Link } from 'react-router';
import { Accordion } from '../../../components/ui/accordion';
import { SUPPORT_EMAIL } from '../../../lib/config';
import { useLocale } from '../../../lib/use-locale';
import { usePricingT } from '../lib/pricing-copy';

const QUESTIONS = ['makeup', 'premium', 'oneTime', 'cost', 'order', 'expiry', 'upgrade', 'downgrade', 'cancel', 'refund'] as const;

/**
 * The pricing FAQ (000 §2): ten questions, one open at a time. The spec's two readings on makeup
 * retouch are settled the customer-fair way: every plan includes it.
 */
export function PricingFaq() {
  const { t, forced } = usePricingT();
  const { lp } = useLocale();
  // The refund page in the FAQ's language: /refund/en and /refund/kr exist for the fixed-language pages.
  const refundPath = forced ? `/refund/${forced === 'en' ? 'en' : 'kr'}` : lp('/refund');
  return (
    <section className="pricing-faq" aria-labelledby="pricing-faq-title">
      <h2 id="pricing-faq-title">{t('pricing.faqTitle')}</h2>
      <Accordion
        testId="pricing-faq"
        items={QUESTIONS.map((q) => ({
          value: q,
          title: t(`pricing.faq.${q}.q`),
          content:
            q === 'refund' ? (
              <p>
                {t('pricing.faq.refund.a')}{' '}
                <Link to={refundPath} data-testid="pricing-refund-link">
                  {t('pricing.refundLink')}
                </Link>{' '}
                · <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
              </p>
            ) : (
              <p>{t(`pricing.faq.${q}.a`)}</p>
            ),
        }))}
      />
    </section>
  );
}
