import { AUTH_LIMITS } from '@dewy/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { useRegister } from '../api/register';
import { useAuthSubmit } from '../hooks/use-auth-submit';
import { AuthField } from './auth-field';
import { AuthFormLayout } from './auth-form-layout';

/** /signup (spec 000 §2/§8): name, e-mail, password; success → toast and /login. */
export function SignupPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const navigate = useNavigate();
  const register = useRegister();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const { error, submit } = useAuthSubmit(
    async () => {
      await register.mutateAsync({ name: name.trim(), email: email.trim(), password });
      notify.success(t('auth.signup.success'));
      void navigate(lp('/login'));
    },
    (err) => {
      if (err instanceof ApiError && !err.isNetwork && err.status < 500) {
        return err.serverError || t('auth.signup.failed');
      }
      const detail = err instanceof ApiError ? err.serverError || err.message : String(err);
      return t('auth.signup.serverError', { detail });
    },
  );

  return (
    <AuthFormLayout mode="signup" onSubmit={submit} error={error} pending={register.isPending} providers={['google']}>
      <AuthField label={t('auth.name')} type="text" name="name" autoComplete="name" maxLength={AUTH_LIMITS.nameMax} value={name} onValue={setName} testId="signup-name" />
      <AuthField label={t('auth.email')} type="email" name="email" autoComplete="email" value={email} onValue={setEmail} testId="signup-email" />
      <AuthField
        label={t('auth.password')}
        type="password"
        name="password"
        autoComplete="new-password"
        value={password}
        onValue={setPassword}
        testId="signup-password"
        hint={<small className="auth-hint">{t('auth.signup.passwordHint', { min: AUTH_LIMITS.passwordMin })}</small>}
      />
    </AuthFormLayout>
  );
}
