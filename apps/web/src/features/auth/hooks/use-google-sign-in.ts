import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { postGoogleCredential } from '../../../shared/social';
import { googleErrorText } from '../lib/google-error';

/**
 * Google sign-in from the auth pages (spec 000 §7 POST /api/auth/google): the credential signs in (or
 * signs up) and the user goes to `next` (else /upscale); a failure gives the spec 000 §8 Google text.
 */
export function useGoogleSignIn(next: string | null) {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const navigate = useNavigate();
  const { signIn } = useSession();
  const [error, setError] = useState<string | null>(null);
  const onGoogleCredential = (credential: string) => {
    setError(null);
    postGoogleCredential(credential)
      .then(async (user) => {
        await signIn(user);
        await navigate(lp(next ?? '/upscale'));
      })
      .catch((err: unknown) => setError(googleErrorText(err, t)));
  };
  return { googleError: error, onGoogleCredential };
}
