import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocale } from '../../../lib/use-locale';
import { SocialButtons, type Provider } from './social-buttons';
import './auth.css';

/** The link to the other auth page, per mode. */
const SWITCH = {
  login: { path: '/signup', testId: 'signup-link', prompt: 'auth.login.noAccount', link: 'auth.login.signupLink' },
  signup: { path: '/login', testId: 'login-link', prompt: 'auth.signup.haveAccount', link: 'auth.signup.loginLink' },
} as const;

/**
 * Shared shell of /login and /signup: title and subtitle from `auth.{mode}.*`, the form with its
 * fields, error and submit button (test ids `{mode}-form|error|submit`), social buttons (decision 021), and the
 * link to the other page (`SWITCH`).
 */
export function AuthFormLayout({
  mode,
  onSubmit,
  error,
  pending,
  providers,
  next,
  onGoogleCredential,
  children,
}: {
  mode: 'login' | 'signup';
  onSubmit: (e: FormEvent) => void;
  error: string | null;
  pending: boolean;
  providers: Provider[];
  /** Where a Naver/Kakao sign-in returns (Korean-form path). */
  next?: string | null;
  /** A Google Identity Services credential to sign in with. */
  onGoogleCredential: (credential: string) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const other = SWITCH[mode];
  return (
    <div className="container page auth-page">
      <div className="auth-card card">
        <h1>{t(`auth.${mode}.title`)}</h1>
        <p className="auth-sub">{t(`auth.${mode}.subtitle`)}</p>
        <form onSubmit={onSubmit} className="auth-form" data-testid={`${mode}-form`}>
          {children}
          {error ? (
            <p className="auth-error" role="alert" data-testid={`${mode}-error`}>
              {error}
            </p>
          ) : null}
          <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={pending} data-testid={`${mode}-submit`}>
            {pending ? t(`auth.${mode}.submitting`) : t(`auth.${mode}.submit`)}
          </button>
        </form>
        <div className="auth-divider">
          <span>{t('auth.or')}</span>
        </div>
        <SocialButtons providers={providers} mode={mode} next={next} onGoogleCredential={onGoogleCredential} />
        <p className="auth-switch">
          {t(other.prompt)}{' '}
          <Link to={lp(other.path)} data-testid={other.testId}>
            {t(other.link)}
          </Link>
        </p>
      </div>
    </div>
  );
}
