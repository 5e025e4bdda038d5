import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { useLogin } from '../api/login';
import { SocialButtons } from './social-buttons';
import './auth.css';

/** /login (spec 000 §2/§8): e-mail + password; failure shows the server `error`, else the catalogue text. */
export function LoginPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const navigate = useNavigate();
  const { signIn } = useSession();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const user = await login.mutateAsync({ email: email.trim(), password });
      await signIn(user);
      void navigate(lp('/upscale'));
    } catch (err) {
      const serverError = err instanceof ApiError && !err.isNetwork ? err.serverError : undefined;
      setError(serverError || t('auth.login.failed'));
    }
  };

  return (
    <div className="container page auth-page">
      <div className="auth-card card">
        <h1>{t('auth.login.title')}</h1>
        <p className="auth-sub">{t('auth.login.subtitle')}</p>
        <form onSubmit={(e) => void submit(e)} className="auth-form" data-testid="login-form">
          <label className="auth-field">
            <span>{t('auth.email')}</span>
            <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} data-testid="login-email" />
          </label>
          <label className="auth-field">
            <span>{t('auth.password')}</span>
            <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} data-testid="login-password" />
          </label>
          {error ? (
            <p className="auth-error" role="alert" data-testid="login-error">
              {error}
            </p>
          ) : null}
          <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={login.isPending} data-testid="login-submit">
            {login.isPending ? t('auth.login.submitting') : t('auth.login.submit')}
          </button>
        </form>
        <div className="auth-divider">
          <span>{t('auth.or')}</span>
        </div>
        <SocialButtons providers={['google', 'naver', 'kakao']} mode="login" />
        <p className="auth-switch">
          {t('auth.login.noAccount')}{' '}
          <Link to={lp('/signup')} data-testid="signup-link">
            {t('auth.login.signupLink')}
          </Link>
        </p>
      </div>
    </div>
  );
}
