import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session';
import { PaymentResultLayout } from './payment-result-layout';

/** Payment success page (spec 000 §2): e-mail, credits, plan; 5 s countdown to home; no user → /login. */
export function PaymentSuccessPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <PaymentResultLayout
      testId="payment-success"
      icon="check"
      title={t('payment.successTitle')}
      seconds={5}
      extraFacts={
        <>
          <dt>{t('payment.plan')}</dt>
          <dd>{user?.plan}</dd>
        </>
      }
      primaryAction={{ path: '/upscale', label: t('payment.toUpscale') }}
    />
  );
}
