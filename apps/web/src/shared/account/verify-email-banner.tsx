import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { postResendVerification } from '../../lib/account-api';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import './verify-email-banner.css';

/**
 * Under the header on every page while the signed-in account's address is unverified (decision 020):
 * says why the welcome credits are not there yet and offers a new link (rate-limited by the server,
 * whose refusal is shown in the user's language).
 */
export function VerifyEmailBanner() {
  const { t } = useTranslation();
  const { user, forceSync } = useSession();
  const [busy, setBusy] = useState(false);
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
    <div className="verify-banner" role="status" data-testid="verify-banner">
      <div className="container verify-banner-inner">
        <p>{t('account.banner.text', { email: user.email })}</p>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void resend()} disabled={busy} data-testid="verify-banner-resend">
          {busy ? t('account.banner.sending') : t('account.banner.resend')}
        </button>
      </div>
    </div>
  );
}
