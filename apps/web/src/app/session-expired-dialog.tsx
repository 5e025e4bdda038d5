import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Dialog } from '../components/ui/dialog';
import { useLocale } from '../lib/use-locale';
import { useSession } from '../lib/session';

/**
 * The session-expired dialog itself (spec 000 §2/§8), loaded only when a session expires (decision 025:
 * Radix Dialog is not part of the first load). Title and text say the same thing in both languages:
 * 'Login expired' / 'Login has expired. Please log in again.' (issue 17); one button, 'Log in again'.
 */
export function SessionExpiredDialog() {
  const { t } = useTranslation();
  const { expired, closeExpired } = useSession();
  const { lp } = useLocale();
  const navigate = useNavigate();
  const relogin = () => {
    closeExpired();
    void navigate(lp('/login'));
  };
  return (
    <Dialog
      open={expired.open}
      onOpenChange={(open) => {
        if (!open) closeExpired();
      }}
      title={t('session.expiredTitle')}
      description={expired.message || t('session.expired')}
      testId="session-expired-modal"
      // One way out, as 000 §2 says: 'Log in again'. Not dismissible, so nothing on the page below
      // (a redirect to /login autofocusing its field) can close it by taking focus.
      dismissible={false}
      closeLabel={t('common.close')}
      actions={
        <button type="button" className="btn btn-primary" onClick={relogin} data-testid="session-expired-login">
          {t('session.loginAgain')}
        </button>
      }
    />
  );
}
