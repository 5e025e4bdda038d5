import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocale } from '../lib/use-locale';
import { Icon } from '../components/ui/icons';

/** A clean placeholder for pages built later, so navigation works in both languages. */
export function ComingSoonPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { lp } = useLocale();
  return (
    <div className="container page">
      <div className="center-screen card" data-testid="coming-soon">
        <div className="emoji emoji-icon">
          <Icon name="sprout" size={40} />
        </div>
        <h1>{t(titleKey)}</h1>
        <p style={{ color: 'var(--dw-muted)' }}>{t('comingSoon.body')}</p>
        <div style={{ display: 'flex', gap: 10, flexWrap: 'wrap', justifyContent: 'center' }}>
          <Link className="btn btn-primary" to={lp('/upscale')}>
            {t('comingSoon.tryRetouch')}
          </Link>
          <Link className="btn btn-secondary" to={lp('/')}>
            {t('common.goHome')}
          </Link>
        </div>
      </div>
    </div>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  return (
    <div className="container page">
      <div className="center-screen" data-testid="not-found">
        <h1>{t('notFound.title')}</h1>
        <p>{t('notFound.body')}</p>
        <Link className="btn btn-primary" to={lp('/')}>
          {t('common.goHome')}
        </Link>
      </div>
    </div>
  );
}
