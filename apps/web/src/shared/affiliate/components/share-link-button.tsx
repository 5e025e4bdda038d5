import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session';
import { useAffiliateEnabled } from '../hooks/use-affiliate';
import { ShareLinkDialog } from './share-link-dialog';

export interface ShareLinkButtonProps {
  /** The button is `<prefix>-share`; the popup `<prefix>-share-dialog`. */
  testIdPrefix: string;
  className?: string;
}

/**
 * A tool page's "Share" button and its share-link popup (001 §2). Renders nothing unless the server
 * reports the affiliate programme enabled and a user is signed in (a link belongs to someone).
 */
export function ShareLinkButton({ testIdPrefix, className = 'btn btn-secondary btn-sm' }: ShareLinkButtonProps) {
  const { t } = useTranslation();
  const enabled = useAffiliateEnabled();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  if (!enabled || !user) return null;
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)} data-testid={`${testIdPrefix}-share`}>
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path d="M4 12v7a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-7M16 6l-4-4-4 4M12 2v13" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {t('affiliate.share')}
      </button>
      <ShareLinkDialog open={open} onOpenChange={setOpen} testIdPrefix={testIdPrefix} />
    </>
  );
}
