import { AUTH_LIMITS } from '@dewy/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { postResetPassword } from '../../../lib/account-api';
import { ApiError } from '../../../lib/api-client';
import { useLocale } from '../../../lib/use-locale';
import { useAuthSubmit } from '../hooks/use-auth-submit';
import { AuthField } from './auth-field';
import './auth.css';

/**
 * /reset-password?token=… (decision 020): a new password under sign-up's rule (checked here, then by
 * the server's shared contract), typed twice. Success ends every other session of the account; the
 * server's refusals (expired, used, invalid link) are shown in the user's language.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);
  const { error, submit } = useAuthSubmit(
    async () => {
      if (password.length < AUTH_LIMITS.passwordMin) throw new Error(t('auth.signup.passwordHint', { min: AUTH_LIMITS.passwordMin }));
      if (password !== confirm) throw new Error(t('account.reset.mismatch'));
      setPending(true);
      try {
        await postResetPassword({ token, password });
        setDone(true);
      } finally {
        setPending(false);
      }
    },
    (err) => (err instanceof ApiError ? (err.isNetwork ? t('account.verify.network') : err.message) : err instanceof Error ? err.message : String(err)),
  );

  return (
    <div className="container page auth-page">
      <div className="auth-card card account-card" data-testid="reset-password">
        <h1>{t('account.reset.title')}</h1>
        {done ? (
          <>
            <p className="auth-sub" role="status" data-testid="reset-password-done">
              {t('account.reset.done')}
            </p>
            <Link className="btn btn-primary btn-block btn-lg" to={lp('/login')} data-testid="reset-password-login">
              {t('account.verify.login')}
            </Link>
          </>
        ) : (
          <>
            <p className="auth-sub">{t('account.reset.subtitle')}</p>
            <form onSubmit={submit} className="auth-form" data-testid="reset-password-form">
              <AuthField
                label={t('account.reset.password')}
                type="password"
                name="new-password"
                autoComplete="new-password"
                minLength={AUTH_LIMITS.passwordMin}
                maxLength={AUTH_LIMITS.passwordMax}
                value={password}
                onValue={setPassword}
                testId="reset-password-input"
                hint={<span className="auth-hint">{t('auth.signup.passwordHint', { min: AUTH_LIMITS.passwordMin })}</span>}
              />
              <AuthField label={t('account.reset.confirm')} type="password" name="confirm-password" autoComplete="new-password" value={confirm} onValue={setConfirm} testId="reset-password-confirm" />
              {error ? (
                <p className="auth-error" role="alert" data-testid="reset-password-error">
                  {error}
                </p>
              ) : null}
              <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={pending} data-testid="reset-password-submit">
                {pending ? t('account.reset.submitting') : t('account.reset.submit')}
              </button>
            </form>
            <p className="auth-switch">
              <Link to={lp('/forgot-password')}>{t('account.reset.newLink')}</Link>
            </p>
          </>
        )}
      </div>
    </div>
  );
}
