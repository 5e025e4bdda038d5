import { DEFAULT_CREDITS_DISPLAY } from '@dewy/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import type { IconName } from '../../../components/ui/icons';
import { StatusCard } from '../../../components/ui/status-card';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { useCountdown } from '../hooks/use-countdown';
import './payment.css';

/**
 * Shared shell of the payment result pages (spec 000 §2): no user → /login; otherwise a card with
 * e-mail and credits (plus `extraFacts`), the page's own content, a primary action, My page, and a
 * countdown that returns home after `seconds`.
 */
export function PaymentResultLayout({
  testId,
  icon,
  iconClassName,
  title,
  seconds,
  extraFacts,
  primaryAction,
  children,
}: {
  testId: string;
  icon: IconName;
  iconClassName?: string;
  title: ReactNode;
  seconds: number;
  extraFacts?: ReactNode;
  primaryAction: { path: string; label: ReactNode };
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const { user, status } = useSession();
  const left = useCountdown(seconds, lp('/'), Boolean(user));
  if (!user && status !== 'loading') return <Navigate to={lp('/login')} replace />;
  return (
    <StatusCard className="payment-card" testId={testId} icon={icon} iconSize={44} iconClassName={iconClassName} title={title}>
      <dl className="payment-facts">
        <dt>{t('auth.email')}</dt>
        <dd>{user?.email}</dd>
        <dt>{t('header.credits')}</dt>
        <dd>{(user?.credits ?? DEFAULT_CREDITS_DISPLAY).toLocaleString()}</dd>
        {extraFacts}
      </dl>
      {children}
      <div className="payment-actions">
        <Link className="btn btn-primary" to={lp(primaryAction.path)}>
          {primaryAction.label}
        </Link>
        <Link className="btn btn-secondary" to={lp('/mypage')}>
          {t('nav.mypage')}
        </Link>
      </div>
      <p className="payment-countdown">{t('payment.countdown', { n: left })}</p>
    </StatusCard>
  );
}
