import { useTranslation } from 'react-i18next';
import { SUPPORT_EMAIL } from '../../../lib/config';
import { PaymentResultLayout } from './payment-result-layout';

const CAUSES = ['card', 'limit', 'network', 'cancelled'] as const;

/** Payment failed page (spec 000 §2): causes, support e-mail; 10 s countdown to home; no user → /login. */
export function PaymentFailedPage() {
  const { t } = useTranslation();
  return (
    <PaymentResultLayout
      testId="payment-failed"
      icon="warning"
      iconClassName="emoji-warn"
      title={t('payment.failedTitle')}
      seconds={10}
      primaryAction={{ path: '/pricing', label: t('nav.pricing') }}
    >
      <h2 className="payment-causes-title">{t('payment.causesTitle')}</h2>
      <ul className="payment-causes">
        {CAUSES.map((c) => (
          <li key={c}>{t(`payment.causes.${c}`)}</li>
        ))}
      </ul>
      <p>
        {t('footer.support')}: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
      </p>
    </PaymentResultLayout>
  );
}
