import type { Locale } from '@dewy/contracts';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session';
import { useSubscriptionStatus } from '../hooks/use-subscription-status';
import { hasPaymentIssue, subscriptionDisplayState, subscriptionSnapshot } from '../lib/subscription-state';
import './subscription.css';

/**
 * The failed-payment banner (issue 21 point 12, decision 030), on My Page and the pricing page: the
 * subscription's payment failed (past due, unpaid, incomplete: the contracts' PAYMENT_ISSUE_STATUSES),
 * what happens and what to do, with the provider's update-payment link when it has one. Renders nothing
 * otherwise.
 * @param lng show it in this language instead of the page's (/pricing/en, /pricing/kr)
 */
export function PaymentIssueBanner({ lng }: { lng?: Locale }) {
  const { t } = useTranslation(undefined, { lng });
  const { user } = useSession();
  const status = useSubscriptionStatus();
  const snap = subscriptionSnapshot(user, status.data);
  const state = subscriptionDisplayState(snap, new Date());
  if (!snap || !hasPaymentIssue(state)) return null;
  return (
    <div className="sub-issue-banner" role="alert" data-testid="payment-issue-banner" data-state={state} lang={lng}>
      <div className="sub-issue-text">
        <strong>{t('subscription.issueBanner.title')}</strong>
        <p>{t('subscription.issueBanner.body', { plan: t(`plans.${snap.plan}`) })}</p>
      </div>
      {snap.updatePaymentUrl ? (
        <a className="btn btn-primary btn-sm" href={snap.updatePaymentUrl} data-testid="payment-issue-update">
          {t('subscription.updatePayment')}
        </a>
      ) : (
        <p className="sub-issue-support">{t('subscription.issueBanner.noLink')}</p>
      )}
    </div>
  );
}
