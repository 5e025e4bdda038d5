import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { fetchCheckoutStatus } from '../../../lib/billing-api';
import { SUPPORT_EMAIL } from '../../../lib/config';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { purchaseLabel } from '../lib/purchase-label';
import { PaymentResultLayout } from './payment-result-layout';

const CAUSES = ['card', 'limit', 'network', 'cancelled'] as const;

/**
 * Payment failed page (spec 000 §2): e-mail, credits, possible causes, the support e-mail, buttons to
 * /pricing and /mypage, a 10 s countdown home; no user → /login. With `?checkout=` it asks the server
 * once: a checkout that in fact completed goes to the success page instead.
 */
export function PaymentFailedPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const [params] = useSearchParams();
  const id = params.get('checkout');
  const { user, status } = useSession();
  const checkout = useQuery({
    queryKey: ['checkout', id],
    queryFn: ({ signal }) => fetchCheckoutStatus(id ?? '', signal),
    enabled: Boolean(id) && Boolean(user) && status === 'authenticated',
    retry: false,
    staleTime: 0,
  });
  const data = checkout.data;
  if (data?.status === 'completed') return <Navigate to={`${lp('/payment/success')}?checkout=${encodeURIComponent(data.checkoutId)}`} replace />;
  const bought = data ? purchaseLabel(data, t) : null;
  return (
    <PaymentResultLayout
      testId="payment-failed"
      icon="warning"
      iconClassName="emoji-warn"
      title={t('payment.failedTitle')}
      countdownSeconds={10}
      extraFacts={
        bought ? (
          <>
            <dt>{t('payment.purchase')}</dt>
            <dd data-testid="payment-purchase">{bought}</dd>
          </>
        ) : null
      }
      actions={
        <>
          <Link className="btn btn-primary" to={lp('/pricing')} data-testid="payment-to-pricing">
            {t('nav.pricing')}
          </Link>
          <Link className="btn btn-secondary" to={lp('/mypage')} data-testid="payment-to-mypage">
            {t('nav.mypage')}
          </Link>
        </>
      }
    >
      <h2 className="payment-causes-title">{t('payment.causesTitle')}</h2>
      <ul className="payment-causes">
        {CAUSES.map((c) => (
          <li key={c}>{t(`payment.causes.${c}`)}</li>
        ))}
      </ul>
      <p className="payment-support">
        {t('payment.supportLead')}: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
      </p>
    </PaymentResultLayout>
  );
}
