import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocale } from '../lib/use-locale';
import { StatusCard } from '../components/ui/status-card';

/** A clean placeholder for pages built later, so navigation works in both languages. */
export function ComingSoonPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { lp } = useLocale();
  return (
    <StatusCard className="center-screen" testId="coming-soon" icon="sprout" iconSize={40} title={t(titleKey)}>
      <p style={{ color: 'var(--dw-muted)' }}>{t('comingSoon.body')}</p>
      <div style={{ display: 'flex', gap: 10, flexWrap: 'wrap', justifyContent: 'center' }}>
        <Link className="btn btn-primary" to={lp('/upscale')}>
          {t('comingSoon.tryRetouch')}
        </Link>
        <Link className="btn btn-secondary" to={lp('/')}>
          {t('common.goHome')}
        </Link>
      </div>
    </StatusCard>
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
