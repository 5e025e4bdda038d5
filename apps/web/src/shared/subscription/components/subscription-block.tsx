import type { Locale } from '@dewy/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { postCancelSubscription, postResumeSubscription, postWithdrawDowngrade } from '../../../lib/billing-api';
import { formatSeoulDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { useInvalidateSubscriptionStatus, useSubscriptionStatus } from '../hooks/use-subscription-status';
import {
  canCancelSubscription,
  canResumeSubscription,
  canWithdrawDowngrade,
  hasPaymentIssue,
  subscriptionDate,
  subscriptionDisplayState,
  subscriptionSnapshot,
  subscriptionTone,
} from '../lib/subscription-state';
import './subscription.css';

/**
 * "Your subscription" (001 §2/§4/§7), for the pricing page and My Page: plan, display state (first
 * match wins), renewal or end date in Asia/Seoul, the next plan of a scheduled downgrade, a Cancel
 * button (non-free plan with a subscriptionId and no cancellation; confirmed first) and a Resume
 * button while a cancellation is scheduled, a Withdraw button (confirmed first) while a downgrade is
 * scheduled, and while a payment failed what to do with the provider's update-payment link (decision
 * 030). Failures show the server's message, else a generic one.
 * Renders nothing for a visitor or a free plan.
 * @param lng show the block in this language instead of the page's (the /pricing/en and /pricing/kr pages)
 */
export function SubscriptionBlock({ lng, className }: { lng?: Locale; className?: string }) {
  const { t } = useTranslation(undefined, { lng });
  const { locale: pageLocale } = useLocale();
  const locale = lng ?? pageLocale;
  const { user, forceSync } = useSession();
  const status = useSubscriptionStatus();
  const invalidate = useInvalidateSubscriptionStatus();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [withdrawOpen, setWithdrawOpen] = useState(false);
  const [busy, setBusy] = useState<'cancel' | 'resume' | 'withdraw' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const snap = subscriptionSnapshot(user, status.data);
  const now = new Date();
  const state = subscriptionDisplayState(snap, now);
  if (!snap || state === 'none') return null;

  const date = subscriptionDate(snap, state);
  const dateText = date ? formatSeoulDate(date.iso, locale) : '';
  const showCancel = canCancelSubscription(snap);
  const showResume = canResumeSubscription(state);
  const showWithdraw = canWithdrawDowngrade(snap, state);
  const paymentIssue = hasPaymentIssue(state);
  const planName = (plan: string) => t(`plans.${plan}`);

  const describe = (err: unknown) => (err instanceof ApiError && !err.isNetwork && err.message ? err.message : t('subscription.genericError'));

  const refresh = () => Promise.all([forceSync(), invalidate()]);

  const cancel = async () => {
    if (busy) return;
    setBusy('cancel');
    setError(null);
    try {
      const res = await postCancelSubscription();
      if (res.alreadyScheduled) notify.info(t('subscription.alreadyScheduled'));
      else notify.success(t('subscription.cancelDone', { date: formatSeoulDate(res.ends_at, locale) }));
      await refresh();
    } catch (err) {
      setError(t('subscription.cancelFailed', { error: describe(err) }));
    } finally {
      setBusy(null);
      setConfirmOpen(false);
    }
  };

  const resume = async () => {
    if (busy) return;
    setBusy('resume');
    setError(null);
    try {
      await postResumeSubscription();
      notify.success(t('subscription.resumeDone'));
      await refresh();
    } catch (err) {
      setError(t('subscription.resumeFailed', { error: describe(err) }));
    } finally {
      setBusy(null);
    }
  };

  const withdraw = async () => {
    if (busy) return;
    setBusy('withdraw');
    setError(null);
    try {
      const res = await postWithdrawDowngrade();
      notify.success(t('subscription.withdrawDone', { plan: planName(res.plan) }));
      await refresh();
    } catch (err) {
      setError(t('subscription.withdrawFailed', { error: describe(err) }));
      void invalidate();
    } finally {
      setBusy(null);
      setWithdrawOpen(false);
    }
  };

  return (
    <section className={`sub-block card${className ? ` ${className}` : ''}`} data-testid="subscription-block" data-state={state} aria-labelledby="sub-block-title" lang={lng}>
      <div className="sub-block-head">
        <h2 id="sub-block-title">{t('subscription.title')}</h2>
        <span className={`sub-state sub-state-${subscriptionTone(state)}`} data-testid="subscription-state" data-tone={subscriptionTone(state)}>
          {t(`subscription.state.${state}`)}
        </span>
      </div>
      <dl className="sub-block-facts">
        <div>
          <dt>{t('subscription.plan')}</dt>
          <dd data-testid="subscription-plan">{planName(snap.plan)}</dd>
        </div>
        {date && dateText ? (
          <div>
            <dt>{t(`subscription.date.${date.kind}`)}</dt>
            <dd data-testid="subscription-date">{dateText}</dd>
          </div>
        ) : null}
        {snap.nextPlan && showWithdraw ? (
          <div>
            <dt>{t('subscription.nextPlan')}</dt>
            <dd data-testid="subscription-next-plan">{planName(snap.nextPlan)}</dd>
          </div>
        ) : null}
      </dl>
      {state === 'cancel_scheduled' && dateText ? <p className="sub-block-note">{t('subscription.scheduledNote', { date: dateText })}</p> : null}
      {state === 'expired' ? <p className="sub-block-note">{t('subscription.expiredNote')}</p> : null}
      {showWithdraw && snap.nextPlan ? (
        <p className="sub-block-note" data-testid="subscription-next-plan-note">
          {t('subscription.nextPlanNote', { plan: planName(snap.nextPlan), current: planName(snap.plan) })}
        </p>
      ) : null}
      {paymentIssue ? (
        <p className="sub-block-note sub-block-issue" data-testid="subscription-payment-issue">
          {t('subscription.paymentIssueNote')}
        </p>
      ) : null}
      {error ? (
        <p className="sub-block-error" role="alert" data-testid="subscription-error">
          {error}
        </p>
      ) : null}
      {showCancel || showResume || showWithdraw || (paymentIssue && snap.updatePaymentUrl) ? (
        <div className="sub-block-actions">
          {paymentIssue && snap.updatePaymentUrl ? (
            <a className="btn btn-primary btn-sm" href={snap.updatePaymentUrl} data-testid="subscription-update-payment">
              {t('subscription.updatePayment')}
            </a>
          ) : null}
          {showWithdraw ? (
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setWithdrawOpen(true)} disabled={busy !== null} data-testid="subscription-withdraw">
              {t('subscription.withdraw')}
            </button>
          ) : null}
          {showCancel ? (
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirmOpen(true)} disabled={busy !== null} data-testid="subscription-cancel">
              {t('subscription.cancel')}
            </button>
          ) : null}
          {showResume ? (
            <button type="button" className="btn btn-primary btn-sm" onClick={() => void resume()} disabled={busy !== null} aria-busy={busy === 'resume'} data-testid="subscription-resume">
              {busy === 'resume' ? t('subscription.busy') : t('subscription.resume')}
            </button>
          ) : null}
        </div>
      ) : null}
      <Dialog
        open={withdrawOpen}
        onOpenChange={(open) => {
          if (!busy) setWithdrawOpen(open);
        }}
        title={t('subscription.withdrawTitle')}
        description={snap.nextPlan ? t('subscription.withdrawBody', { plan: planName(snap.nextPlan), current: planName(snap.plan) }) : ''}
        testId="subscription-withdraw-dialog"
        closeLabel={t('common.close')}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setWithdrawOpen(false)} disabled={busy !== null} data-testid="subscription-withdraw-keep">
              {t('subscription.withdrawKeep')}
            </button>
            <button type="button" className="btn btn-primary" onClick={() => void withdraw()} disabled={busy !== null} aria-busy={busy === 'withdraw'} data-testid="subscription-withdraw-confirm">
              {busy === 'withdraw' ? t('subscription.busy') : t('subscription.withdrawConfirm')}
            </button>
          </>
        }
      />
      <Dialog
        open={confirmOpen}
        onOpenChange={(open) => {
          if (!busy) setConfirmOpen(open);
        }}
        title={t('subscription.confirmTitle')}
        description={t('subscription.confirmBody')}
        testId="subscription-cancel-dialog"
        closeLabel={t('common.close')}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirmOpen(false)} disabled={busy !== null} data-testid="subscription-cancel-keep">
              {t('subscription.keep')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => void cancel()} disabled={busy !== null} aria-busy={busy === 'cancel'} data-testid="subscription-cancel-confirm">
              {busy === 'cancel' ? t('subscription.busy') : t('subscription.confirmCancel')}
            </button>
          </>
        }
      />
    </section>
  );
}
