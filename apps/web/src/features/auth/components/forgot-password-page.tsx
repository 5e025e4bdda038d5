import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { postForgotPassword } from '../../../lib/account-api';
import { ApiError } from '../../../lib/api-client';
import { useLocale } from '../../../lib/use-locale';
import { useAuthSubmit } from '../hooks/use-auth-submit';
import { AuthField } from './auth-field';
import './auth.css';

/**
 * /forgot-password (decision 020): the address → the server mails a 30-minute reset link when an
 * account has it. The answer is the same either way, so the page says "if an account exists".
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const { error, submit } = useAuthSubmit(
    async () => {
      setPending(true);
      try {
        await postForgotPassword({ email: email.trim() });
        setSentTo(email.trim());
      } finally {
        setPending(false);
      }
    },
    (err) => (err instanceof ApiError && !err.isNetwork ? err.message : t('account.verify.network')),
  );

  return (
    <div className="container page auth-page">
      <div className="auth-card card account-card" data-testid="forgot-password">
        <h1>{t('account.forgot.title')}</h1>
        {sentTo ? (
          <>
            <p className="auth-sub" role="status" data-testid="forgot-password-sent">
              {t('account.forgot.sent', { email: sentTo })}
            </p>
            <Link className="btn btn-secondary btn-block" to={lp('/login')}>
              {t('account.forgot.backToLogin')}
            </Link>
          </>
        ) : (
          <>
            <p className="auth-sub">{t('account.forgot.subtitle')}</p>
            <form onSubmit={submit} className="auth-form" data-testid="forgot-password-form">
              <AuthField label={t('auth.email')} type="email" name="email" autoComplete="email" value={email} onValue={setEmail} testId="forgot-password-email" />
              {error ? (
                <p className="auth-error" role="alert">
                  {error}
                </p>
              ) : null}
              <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={pending} data-testid="forgot-password-submit">
                {pending ? t('account.forgot.submitting') : t('account.forgot.submit')}
              </button>
            </form>
            <p className="auth-switch">
              <Link to={lp('/login')}>{t('account.forgot.backToLogin')}</Link>
            </p>
          </>
        )}
      </div>
    </div>
  );
}
