import { useTranslation } from 'react-i18next';
import { COMMUNITY_URL } from '../lib/config';

/** Floating button to the community chat server, new tab (spec 000 §2). */
export function CommunityButton() {
  const { t } = useTranslation();
  return (
    <a className="community-fab" href={COMMUNITY_URL} target="_blank" rel="noopener noreferrer" aria-label={t('community.label')} title={t('community.label')} data-testid="community-button">
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
        <path
          fill="currentColor"
          d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-4.5 3.6A.5.5 0 0 1 4 21.2V18a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zm4 6.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm4 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm4 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z"
        />
      </svg>
    </a>
  );
}
