import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { formatNumber } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { useCheckoutPoll } from '../hooks/use-checkout-poll';
import { purchaseLabel } from '../lib/purchase-label';
import { PaymentChecking, PaymentResultLayout } from './payment-result-layout';

/**
 * Payment success page (spec 000 §2), fed by the server: it polls `?checkout=` (else the latest
 * checkout). Completed → a forced session sync (the header balance rises too), then e-mail, credits,
 * plan, the credits granted, buttons to /upscale and /mypage and a 5 s countdown home. Still pending
 * after the poll window, or unknown → "being processed", never a false "completed". Failed → the
 * failed page; cancelled → pricing. No user → /login.
 */
export function PaymentSuccessPage() {
  const { t } = useTranslation();
  const { lp, locale } = useLocale();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('checkout') || 'latest';
  const { user, status, forceSync } = useSession();
  const { outcome, retry } = useCheckoutPoll(id, Boolean(user) && status !== 'loading');
  const settled = outcome?.kind === 'settled' ? outcome.checkout : null;
  const completedId = settled?.status === 'completed' ? settled.checkoutId : null;
  const [syncedId, setSyncedId] = useState<string | null>(null);

  useEffect(() => {
    if (!completedId) return;
    let live = true;
    void forceSync().finally(() => {
      if (live) setSyncedId(completedId);
    });
    return () => {
      live = false;
    };
  }, [completedId, forceSync]);

  const cancelled = settled?.status === 'cancelled';
  useEffect(() => {
    if (!cancelled) return;
    notify.info(t('payment.cancelled'));
    void navigate(lp('/pricing'), { replace: true });
  }, [cancelled, t, lp, navigate]);

  if (!user && status !== 'loading') return <Navigate to={lp('/login')} replace />;
  if (settled?.status === 'failed') return <Navigate to={`${lp('/payment/failed')}?checkout=${encodeURIComponent(settled.checkoutId)}`} replace />;
  if (!outcome || cancelled || (completedId && syncedId !== completedId)) return <PaymentChecking />;

  if (settled && completedId) {
    const bought = purchaseLabel(settled, t);
    return (
      <PaymentResultLayout
        testId="payment-success"
        icon="check"
        title={t('payment.successTitle')}
        countdownSeconds={5}
        extraFacts={
          <>
            <dt>{t('payment.plan')}</dt>
            <dd data-testid="payment-plan">{user ? t(`plans.${user.plan}`) : ''}</dd>
            {bought ? (
              <>
                <dt>{t('payment.purchase')}</dt>
                <dd data-testid="payment-purchase">{bought}</dd>
              </>
            ) : null}
            <dt>{t('payment.granted')}</dt>
            <dd data-testid="payment-granted">{t('payment.grantedValue', { n: formatNumber(settled.creditsGranted, locale) })}</dd>
          </>
        }
        actions={
          <>
            <Link className="btn btn-primary" to={lp('/upscale')} data-testid="payment-to-upscale">
              {t('payment.toUpscale')}
            </Link>
            <Link className="btn btn-secondary" to={lp('/mypage')} data-testid="payment-to-mypage">
              {t('nav.mypage')}
            </Link>
          </>
        }
      />
    );
  }

  // Pending past the window, or no usable answer: say it is being processed.
  return (
    <PaymentResultLayout
      testId="payment-pending"
      icon="sprout"
      title={t('payment.pendingTitle')}
      actions={
        <>
          <button type="button" className="btn btn-primary" onClick={retry} data-testid="payment-check-again">
            {t('payment.checkAgain')}
          </button>
          <Link className="btn btn-secondary" to={lp('/mypage')}>
            {t('nav.mypage')}
          </Link>
        </>
      }
    >
      <p className="payment-body">{outcome.kind === 'pending' ? t('payment.pendingBody') : t('payment.unknownBody')}</p>
    </PaymentResultLayout>
  );
}
