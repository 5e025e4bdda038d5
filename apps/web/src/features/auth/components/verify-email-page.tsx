import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { postResendVerification, postVerifyEmail } from '../../../lib/account-api';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import './auth.css';

type State = { kind: 'pending' } | { kind: 'success'; credits: number } | { kind: 'expired' | 'used' | 'invalid'; message: string };

/**
 * /verify-email?token=… (decision 020): opens the mailed link once (the token is single-use, so the
 * call runs once even under React's double effects), then says what happened: verified (with the
 * welcome credits granted, and the header balance re-synced), expired (a signed-in user can ask for a
 * new link), already used, or not valid.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { user, forceSync } = useSession();
  const [state, setState] = useState<State>({ kind: 'pending' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    postVerifyEmail(token).then(
      async (r) => {
        setState({ kind: 'success', credits: r.welcomeCredits });
        await forceSync().catch(() => null);
      },
      (err: unknown) => {
        const code = err instanceof ApiError ? err.code : undefined;
        const message = err instanceof ApiError && !err.isNetwork ? err.message : t('account.verify.network');
        setState({ kind: code === 'TOKEN_EXPIRED' ? 'expired' : code === 'TOKEN_USED' ? 'used' : 'invalid', message });
      },
    );
  }, [token, forceSync, t]);

  const resend = async () => {
    try {
      await postResendVerification();
      notify.success(t('account.banner.sent'));
    } catch (err) {
      notify.error(err instanceof ApiError && !err.isNetwork ? err.message : t('account.verify.network'));
    }
  };

  return (
    <div className="container page auth-page">
      <div className="auth-card card account-card account-status" data-testid="verify-email" data-state={state.kind}>
        {state.kind === 'pending' ? (
          <>
            <h1>{t('account.verify.pendingTitle')}</h1>
            <p className="auth-sub">{t('account.verify.pending')}</p>
          </>
        ) : state.kind === 'success' ? (
          <>
            <h1>{t('account.verify.successTitle')}</h1>
            <p className="auth-sub" data-testid="verify-email-message">
              {state.credits > 0 ? t('account.verify.successCredits', { credits: state.credits }) : t('account.verify.successNoCredits')}
            </p>
            <Link className="btn btn-primary btn-block btn-lg" to={lp(user ? '/upscale' : '/login')} data-testid="verify-email-continue">
              {user ? t('account.verify.start') : t('account.verify.login')}
            </Link>
          </>
        ) : (
          <>
            <h1>{t(`account.verify.${state.kind}Title`)}</h1>
            <p className="auth-error" role="alert" data-testid="verify-email-message">
              {state.message}
            </p>
            <p className="auth-sub account-status-hint">{t(`account.verify.${state.kind}Hint`)}</p>
            {user && state.kind !== 'used' ? (
              <button type="button" className="btn btn-primary btn-block" onClick={() => void resend()} data-testid="verify-email-resend">
                {t('account.banner.resend')}
              </button>
            ) : (
              <Link className="btn btn-secondary btn-block" to={lp(user ? '/mypage' : '/login')}>
                {user ? t('account.verify.toMypage') : t('account.verify.login')}
              </Link>
            )}
          </>
        )}
      </div>
    </div>
  );
}
