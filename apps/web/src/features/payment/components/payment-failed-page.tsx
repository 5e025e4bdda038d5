import { DEFAULT_CREDITS_DISPLAY } from '@dewy/contracts';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { SUPPORT_EMAIL } from '../../../lib/config';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { useCountdown } from '../hooks/use-countdown';
import './payment.css';
import { Icon } from '../../../components/ui/icons';

const CAUSES = ['card', 'limit', 'network', 'cancelled'] as const;

/** Payment failed page (spec 000 §2): causes, support e-mail; 10 s countdown to home; no user → /login. */
export function PaymentFailedPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const { user, status } = useSession();
  const left = useCountdown(10, lp('/'), Boolean(user));
  if (!user && status !== 'loading') return <Navigate to={lp('/login')} replace />;
  return (
    <div className="container page">
      <div className="payment-card card" data-testid="payment-failed">
        <div className="emoji emoji-icon emoji-warn">
          <Icon name="warning" size={44} />
        </div>
        <h1>{t('payment.failedTitle')}</h1>
        <dl className="payment-facts">
          <dt>{t('auth.email')}</dt>
          <dd>{user?.email}</dd>
          <dt>{t('header.credits')}</dt>
          <dd>{(user?.credits ?? DEFAULT_CREDITS_DISPLAY).toLocaleString()}</dd>
        </dl>
        <h2 className="payment-causes-title">{t('payment.causesTitle')}</h2>
        <ul className="payment-causes">
          {CAUSES.map((c) => (
            <li key={c}>{t(`payment.causes.${c}`)}</li>
          ))}
        </ul>
        <p>
          {t('footer.support')}: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
        </p>
        <div className="payment-actions">
          <Link className="btn btn-primary" to={lp('/pricing')}>
            {t('nav.pricing')}
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
