import { DEFAULT_CREDITS_DISPLAY } from '@dewy/contracts';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { useCountdown } from '../hooks/use-countdown';
import './payment.css';
import { Icon } from '../../../components/ui/icons';

/** Payment success page (spec 000 §2): e-mail, credits, plan; 5 s countdown to home; no user → /login. */
export function PaymentSuccessPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const { user, status } = useSession();
  const left = useCountdown(5, lp('/'), Boolean(user));
  if (!user && status !== 'loading') return <Navigate to={lp('/login')} replace />;
  return (
    <div className="container page">
      <div className="payment-card card" data-testid="payment-success">
        <div className="emoji emoji-icon">
          <Icon name="check" size={44} />
        </div>
        <h1>{t('payment.successTitle')}</h1>
        <dl className="payment-facts">
          <dt>{t('auth.email')}</dt>
          <dd>{user?.email}</dd>
          <dt>{t('header.credits')}</dt>
          <dd>{(user?.credits ?? DEFAULT_CREDITS_DISPLAY).toLocaleString()}</dd>
          <dt>{t('payment.plan')}</dt>
          <dd>{user?.plan}</dd>
        </dl>
        <div className="payment-actions">
          <Link className="btn btn-primary" to={lp('/upscale')}>
            {t('payment.toUpscale')}
          </Link>
          <Link className="btn btn-secondary" to={lp('/mypage')}>
            {t('nav.mypage')}
          </Link>
        </div>
        <p className="payment-countdown">{t('payment.countdown', { n: left })}</p>
      </div>
    </div>
  );
}
