import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { safeNextPath } from '../../../lib/locale-path';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { useLogin } from '../api/login';
import { useAuthSubmit } from '../hooks/use-auth-submit';
import { AuthField } from './auth-field';
import { AuthFormLayout } from './auth-form-layout';

/**
 * /login (spec 000 §2/§8): e-mail + password; failure shows the server `error`, else the catalogue text.
 * Signed in, it goes to `?next=` (a same-site path, e.g. back to pricing), else to /upscale.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const { signIn } = useSession();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const { error, submit } = useAuthSubmit(
    async () => {
      const user = await login.mutateAsync({ email: email.trim(), password });
      await signIn(user);
      void navigate(lp(next ?? '/upscale'));
    },
    (err) => {
      const serverError = err instanceof ApiError && !err.isNetwork ? err.serverError : undefined;
      return serverError || t('auth.login.failed');
    },
  );

  return (
    <AuthFormLayout mode="login" onSubmit={submit} error={error} pending={login.isPending} providers={['google', 'naver', 'kakao']}>
      <AuthField label={t('auth.email')} type="email" name="email" autoComplete="email" value={email} onValue={setEmail} testId="login-email" />
      <AuthField label={t('auth.password')} type="password" name="password" autoComplete="current-password" value={password} onValue={setPassword} testId="login-password" />
    </AuthFormLayout>
  );
}
