import { AUTH_LIMITS } from '@dewy/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { postDeleteAccount } from '../../../lib/account-api';
import { ApiError } from '../../../lib/api-client';
import { formatNumber, formatSeoulDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { hasLiveSubscription, isCancelScheduled, subscriptionSnapshot, useSubscriptionStatus } from '../../../shared/subscription';

/**
 * Account deletion (002 §9, decision 020): what happens (disabled now, deleted for good after 14 days,
 * undo by signing in), what is lost with the numbers (purchased one-time + bonus credits, subscription
 * credits; issue 21 point 16) and, when one runs, that the subscription is cancelled; then the password
 * to confirm. A social-only account
 * leaves the password empty and is asked by the server for a fresh social sign-in. On success the
 * browser is signed out and sent home with the deletion date.
 */
export function DeleteAccountCard() {
  const { t } = useTranslation();
  const { lp, locale } = useLocale();
  const navigate = useNavigate();
  const { signOut, user } = useSession();
  const status = useSubscriptionStatus();
  const snap = subscriptionSnapshot(user, status.data);
  const now = new Date();
  const subscriptionRuns = snap !== null && hasLiveSubscription(snap, now) && !isCancelScheduled(snap, now);
  const purchased = (user?.one_time_credits ?? 0) + (user?.bonus_credits ?? 0);
  const subscriptionCredits = user?.subscription_credits ?? 0;
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await postDeleteAccount(password ? { password } : {});
      await navigate(lp('/'));
      await signOut();
      notify.success(t('account.delete.done', { date: formatSeoulDate(r.deletionDueAt, locale) }));
    } catch (err) {
      setError(err instanceof ApiError && !err.isNetwork ? err.message : t('subscription.genericError'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card mypage-card mypage-delete" aria-labelledby="mypage-delete-title" data-testid="mypage-delete">
      <h2 id="mypage-delete-title">{t('account.delete.title')}</h2>
      <p className="mypage-delete-text">{t('account.delete.summary')}</p>
      {open ? (
        <form className="mypage-delete-form" onSubmit={(e) => void submit(e)} noValidate>
          <div className="mypage-delete-loss" role="note" data-testid="mypage-delete-loss">
            <strong>{t('account.delete.lossTitle')}</strong>
            <ul className="mypage-delete-list">
              <li data-testid="mypage-delete-loss-purchased">{t('account.delete.lossPurchased', { n: formatNumber(purchased, locale) })}</li>
              <li data-testid="mypage-delete-loss-subscription">{t('account.delete.lossSubscription', { n: formatNumber(subscriptionCredits, locale) })}</li>
              {subscriptionRuns && snap && snap.plan !== 'free' ? (
                <li data-testid="mypage-delete-loss-plan">{t('account.delete.lossPlan', { plan: t(`plans.${snap.plan}`) })}</li>
              ) : null}
            </ul>
          </div>
          <ul className="mypage-delete-list">
            <li>{t('account.delete.pointDisabled')}</li>
            <li>{t('account.delete.pointPurge')}</li>
            <li>{t('account.delete.pointUndo')}</li>
          </ul>
          <label className="mypage-delete-field">
            <span>{t('account.delete.password')}</span>
            <input
              type="password"
              className="mypage-input"
              autoComplete="current-password"
              maxLength={AUTH_LIMITS.passwordMax}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={error ? true : undefined}
              data-testid="mypage-delete-password"
            />
          </label>
          {error ? (
            <p className="mypage-field-error" role="alert" data-testid="mypage-delete-error">
              {error}
            </p>
          ) : null}
          <div className="mypage-card-foot">
            <button type="submit" className="btn btn-danger btn-sm" disabled={busy} aria-busy={busy} data-testid="mypage-delete-confirm">
              {busy ? t('account.delete.submitting') : t('account.delete.confirm')}
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setOpen(false)} disabled={busy}>
              {t('mypage.profile.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <div className="mypage-card-foot">
          <button type="button" className="btn btn-ghost btn-sm mypage-delete-open" onClick={() => setOpen(true)} data-testid="mypage-delete-open">
            {t('account.delete.open')}
          </button>
        </div>
      )}
    </section>
  );
}
