import { AUTH_LIMITS } from '@dewy/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { useRegister } from '../api/register';
import { SocialButtons } from './social-buttons';
import './auth.css';

/** /signup (spec 000 §2/§8): name, e-mail, password; success → toast and /login. */
export function SignupPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const navigate = useNavigate();
  const register = useRegister();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await register.mutateAsync({ name: name.trim(), email: email.trim(), password });
      notify.success(t('auth.signup.success'));
      void navigate(lp('/login'));
    } catch (err) {
      if (err instanceof ApiError && !err.isNetwork && err.status < 500) {
        setError(err.serverError || t('auth.signup.failed'));
      } else {
        const detail = err instanceof ApiError ? err.serverError || err.message : String(err);
        setError(t('auth.signup.serverError', { detail }));
      }
    }
  };

  return (
    <div className="container page auth-page">
      <div className="auth-card card">
        <h1>{t('auth.signup.title')}</h1>
        <p className="auth-sub">{t('auth.signup.subtitle')}</p>
        <form onSubmit={(e) => void submit(e)} className="auth-form" data-testid="signup-form">
          <label className="auth-field">
            <span>{t('auth.name')}</span>
            <input type="text" name="name" autoComplete="name" required maxLength={AUTH_LIMITS.nameMax} value={name} onChange={(e) => setName(e.target.value)} data-testid="signup-name" />
          </label>
          <label className="auth-field">
            <span>{t('auth.email')}</span>
            <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} data-testid="signup-email" />
          </label>
          <label className="auth-field">
            <span>{t('auth.password')}</span>
            <input type="password" name="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} data-testid="signup-password" />
            <small className="auth-hint">{t('auth.signup.passwordHint', { min: AUTH_LIMITS.passwordMin })}</small>
          </label>
          {error ? (
            <p className="auth-error" role="alert" data-testid="signup-error">
              {error}
            </p>
          ) : null}
          <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={register.isPending} data-testid="signup-submit">
            {register.isPending ? t('auth.signup.submitting') : t('auth.signup.submit')}
          </button>
        </form>
        <div className="auth-divider">
          <span>{t('auth.or')}</span>
        </div>
        <SocialButtons providers={['google']} mode="signup" />
        <p className="auth-switch">
          {t('auth.signup.haveAccount')}{' '}
          <Link to={lp('/login')} data-testid="login-link">
            {t('auth.signup.loginLink')}
          </Link>
        </p>
      </div>
    </div>
  );
}
