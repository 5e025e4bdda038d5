import { DEFAULT_CREDITS_DISPLAY } from '@dewy/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import type { IconName } from '../../../components/ui/icons';
import { StatusCard } from '../../../components/ui/status-card';
import { formatNumber } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { useCountdown } from '../hooks/use-countdown';
import './payment.css';

/**
 * Shared shell of the payment result pages (spec 000 §2): no user → /login; otherwise a card with
 * e-mail and credits (plus `extraFacts`), the page's own content, its actions and, when
 * `countdownSeconds` is given, a countdown that returns home.
 */
export function PaymentResultLayout({
  testId,
  icon,
  iconClassName,
  title,
  countdownSeconds,
  extraFacts,
  actions,
  children,
}: {
  testId: string;
  icon: IconName;
  iconClassName?: string;
  title: ReactNode;
  countdownSeconds?: number;
  extraFacts?: ReactNode;
  actions: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { lp, locale } = useLocale();
  const { user, status } = useSession();
  const left = useCountdown(countdownSeconds ?? 0, lp('/'), Boolean(user) && countdownSeconds !== undefined);
  if (!user && status !== 'loading') return <Navigate to={lp('/login')} replace />;
  return (
    <StatusCard className="payment-card" testId={testId} icon={icon} iconSize={44} iconClassName={iconClassName} title={title}>
      <dl className="payment-facts">
        <dt>{t('auth.email')}</dt>
        <dd data-testid="payment-email">{user?.email}</dd>
        <dt>{t('header.credits')}</dt>
        <dd data-testid="payment-credits">{formatNumber(user?.credits ?? DEFAULT_CREDITS_DISPLAY, locale)}</dd>
        {extraFacts}
      </dl>
      {children}
      <div className="payment-actions">{actions}</div>
      {countdownSeconds !== undefined ? (
        <p className="payment-countdown" data-testid="payment-countdown">
          {t('payment.countdown', { n: left })}
        </p>
      ) : null}
    </StatusCard>
  );
}

/** The card shown while a payment page asks the server about the checkout. */
export function PaymentChecking() {
  const { t } = useTranslation();
  return (
    <div className="container page">
      <div className="payment-card card payment-checking" data-testid="payment-checking" aria-busy="true" role="status">
        <div className="spinner" />
        <p>{t('payment.checking')}</p>
      </div>
    </div>
  );
}
