import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { postResendVerification } from '../../lib/account-api';
import { ApiError, EMAIL_NOT_VERIFIED_EVENT } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import './verify-email-banner.css';

/**
 * Under the header on every page while the signed-in account's address is unverified (decision 020):
 * says why the welcome credits are not there yet, that uploads and the AI tools wait for the verification
 * (decision 032), and offers a new link (rate-limited by the server, whose refusal is shown in the user's
 * language). When a call is refused with EMAIL_NOT_VERIFIED (the api client's event) the banner is
 * highlighted, scrolled into view and its resend button focused.
 */
export function VerifyEmailBanner() {
  const { t } = useTranslation();
  const { user, forceSync } = useSession();
  const [busy, setBusy] = useState(false);
  const [attention, setAttention] = useState(false);
  const resendRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const onRefused = () => {
      setAttention(true);
      resendRef.current?.scrollIntoView({ block: 'nearest' });
      resendRef.current?.focus({ preventScroll: true });
    };
    window.addEventListener(EMAIL_NOT_VERIFIED_EVENT, onRefused);
    return () => window.removeEventListener(EMAIL_NOT_VERIFIED_EVENT, onRefused);
  }, []);
  if (!user || user.email_verified !== false) return null;

  const resend = async () => {
    setBusy(true);
    try {
      const r = await postResendVerification();
      if (r.alreadyVerified) await forceSync();
      else notify.success(t('account.banner.sent'));
    } catch (err) {
      notify.error(err instanceof ApiError && !err.isNetwork ? err.message : t('subscription.genericError'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={attention ? 'verify-banner verify-banner-attention' : 'verify-banner'} role="status" data-testid="verify-banner" data-attention={attention ? 'true' : undefined}>
      <div className="container verify-banner-inner">
        <p>{t('account.banner.text', { email: user.email })}</p>
        <button ref={resendRef} type="button" className="btn btn-secondary btn-sm" onClick={() => void resend()} disabled={busy} data-testid="verify-banner-resend">
          {busy ? t('account.banner.sending') : t('account.banner.resend')}
        </button>
      </div>
    </div>
  );
}
