import { DeletionPendingDetailsSchema, safeReturnPath, type DeletionPendingDetails } from '@dewy/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { postUndoDeletion } from '../../../lib/account-api';
import { formatSeoulDate } from '../../../lib/format';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { parseSocialRedirectError } from '@dewy/contracts';
import { validationMessages } from '../../../lib/validation-messages';
import { useLogin } from '../api/login';
import { useGoogleSignIn } from '../hooks/use-google-sign-in';
import { useAuthSubmit } from '../hooks/use-auth-submit';
import { AuthField } from './auth-field';
import { AuthFormLayout } from './auth-form-layout';

/** What sign-up hands to /login in the navigation state: the e-mail just registered (issue 17). */
export interface LoginPrefill {
  email: string;
}

function prefillEmail(state: unknown): string {
  const email = (state as Partial<LoginPrefill> | null)?.email;
  return typeof email === 'string' ? email : '';
}

/**
 * /login (spec 000 §2/§8): e-mail + password; failure shows the server `error`, else the catalogue text;
 * a refused field is named with its rule. Arriving from sign-up, the e-mail is filled in (issue 17).
 * Signed in, it goes to `?next=` (a same-site path, e.g. back to pricing), else to /upscale. Google,
 * Naver and Kakao sign in too (decision 021); a Naver/Kakao redirect that failed comes back as
 * `?error=<code>`, shown here in the page language.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const { lp, locale } = useLocale();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeReturnPath(params.get('next'));
  const { signIn } = useSession();
  const login = useLogin();
  const location = useLocation();
  const [email, setEmail] = useState(() => prefillEmail(location.state));
  const [fromSignup] = useState(() => prefillEmail(location.state) !== '');
  const [password, setPassword] = useState('');
  const { googleError, onGoogleCredential } = useGoogleSignIn(next);
  const redirectError = parseSocialRedirectError(params.get('error'));
  // 002 §9: a sign-in during the deletion grace period answers ACCOUNT_DELETION_PENDING with an undo token.
  // A social sign-in of such an account comes back as ?error=ACCOUNT_DELETION_PENDING&undo=&due= (decision 021).
  const [pendingDeletion, setPendingDeletion] = useState<DeletionPendingDetails | null>(() => {
    if (redirectError !== 'ACCOUNT_DELETION_PENDING') return null;
    const parsed = DeletionPendingDetailsSchema.safeParse({ undoToken: params.get('undo'), deletionDueAt: params.get('due') });
    return parsed.success ? parsed.data : null;
  });
  const [undoError, setUndoError] = useState<string | null>(null);
  const [undoing, setUndoing] = useState(false);

  const { error, submit } = useAuthSubmit(
    async () => {
      setPendingDeletion(null);
      try {
        const user = await login.mutateAsync({ email: email.trim(), password });
        await signIn(user);
        void navigate(lp(next ?? '/upscale'));
      } catch (err) {
        const details = err instanceof ApiError && err.code === 'ACCOUNT_DELETION_PENDING' ? DeletionPendingDetailsSchema.safeParse((err.body as { details?: unknown }).details) : null;
        if (details?.success) {
          setPendingDeletion(details.data);
          return;
        }
        throw err;
      }
    },
    (err) => {
      const invalid = validationMessages(err, t);
      if (invalid) return invalid.join('\n');
      const serverError = err instanceof ApiError && !err.isNetwork ? err.serverError : undefined;
      return serverError || t('auth.login.failed');
    },
  );

  const undo = async () => {
    if (!pendingDeletion) return;
    setUndoing(true);
    setUndoError(null);
    try {
      const user = await postUndoDeletion({ token: pendingDeletion.undoToken });
      await signIn(user);
      void navigate(lp(next ?? '/mypage'));
    } catch (err) {
      setUndoError(err instanceof ApiError && !err.isNetwork ? err.message : t('auth.login.failed'));
    } finally {
      setUndoing(false);
    }
  };

  return (
    <AuthFormLayout
      mode="login"
      onSubmit={submit}
      error={error ?? googleError ?? (redirectError ? t(`auth.social.error.${redirectError}`) : null)}
      pending={login.isPending}
      providers={['google', 'naver', 'kakao']}
      next={next}
      onGoogleCredential={onGoogleCredential}
    >
      <AuthField label={t('auth.email')} type="email" name="email" autoComplete="email" value={email} onValue={setEmail} testId="login-email" />
      <AuthField
        label={t('auth.password')}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onValue={setPassword}
        testId="login-password"
        // Arriving from sign-up with the e-mail filled in, the password is what is left to type.
        autoFocus={fromSignup}
      />
      <Link className="auth-forgot" to={lp('/forgot-password')} data-testid="forgot-password-link">
        {t('account.forgot.link')}
      </Link>
      {pendingDeletion ? (
        <div className="auth-undo" role="alert" data-testid="login-undo-deletion">
          <p>{t('account.undo.message', { date: formatSeoulDate(pendingDeletion.deletionDueAt, locale) })}</p>
          {undoError ? <p className="auth-error">{undoError}</p> : null}
          <button type="button" className="btn btn-primary btn-block" onClick={() => void undo()} disabled={undoing} data-testid="login-undo-submit">
            {undoing ? t('account.undo.submitting') : t('account.undo.submit')}
          </button>
        </div>
      ) : null}
    </AuthFormLayout>
  );
}
