import { AUTH_LIMITS } from '@dewy/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { validationMessages } from '../../../lib/validation-messages';
import { useLocale } from '../../../lib/use-locale';
import { useRegister } from '../api/register';
import { useGoogleSignIn } from '../hooks/use-google-sign-in';
import { useAuthSubmit } from '../hooks/use-auth-submit';
import { AuthField } from './auth-field';
import { AuthFormLayout } from './auth-form-layout';
import type { LoginPrefill } from './login-page';

/**
 * /signup (spec 000 §2/§8): name, e-mail, password; success → toast and /login with the e-mail carried
 * over in the navigation state (issue 17; never in the address). The server answers an address that
 * already has an account exactly like a new one and mails its owner (decision 031), so the toast says
 * "check your mail" in words that fit both. A refused field is named with its rule.
 * Google sign-up signs in at once (decision 021).
 */
export function SignupPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const navigate = useNavigate();
  const register = useRegister();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { googleError, onGoogleCredential } = useGoogleSignIn(null);

  const { error, submit } = useAuthSubmit(
    async () => {
      await register.mutateAsync({ name: name.trim(), email: email.trim(), password });
      notify.success(t('account.signupMail', { email: email.trim() }));
      void navigate(lp('/login'), { state: { email: email.trim() } satisfies LoginPrefill });
    },
    (err) => {
      const invalid = validationMessages(err, t);
      if (invalid) return invalid.join('\n');
      if (err instanceof ApiError && !err.isNetwork && err.status < 500) {
        return err.serverError || t('auth.signup.failed');
      }
      const detail = err instanceof ApiError ? err.serverError || err.message : String(err);
      return t('auth.signup.serverError', { detail });
    },
  );

  return (
    <AuthFormLayout mode="signup" onSubmit={submit} error={error ?? googleError} pending={register.isPending} providers={['google']} onGoogleCredential={onGoogleCredential}>
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
