import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { legalLinkFor } from '../features/legal/lib/legal-path';
import { useSiteInfo } from '../lib/site-info';
import { useLocale } from '../lib/use-locale';

/**
 * Footer links of spec 000 §2 (landing): /, /upscale, /pricing, the legal pages in the site's language,
 * the support e-mail and the operator's business details (GET /api/site-info): only those the operator
 * has set, nothing for the others (issue 25).
 */
export function Footer() {
  const { t } = useTranslation();
  const { lp, locale } = useLocale();
  const { company, supportEmail } = useSiteInfo();
  const details = (
    [
      [t('legal.company.name'), company.name],
      [t('legal.company.ceo'), company.ceo],
      [t('legal.company.address'), company.address],
      [t('legal.company.registrationNo'), company.registrationNo],
      [t('legal.company.mailOrderNo'), company.mailOrderNo],
    ] as const
  ).filter((d): d is readonly [string, string] => Boolean(d[1]));
  return (
    <footer className="app-footer" data-testid="footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <strong className="footer-logo">Dewy</strong>
          <p>{t('footer.tagline')}</p>
        </div>
        <nav className="footer-links" aria-label={t('footer.navLabel')}>
          <Link to={lp('/')}>{t('nav.home')}</Link>
          <Link to={lp('/upscale')}>{t('tools.upscale.name')}</Link>
          <Link to={lp('/pricing')}>{t('nav.pricing')}</Link>
          <Link to={lp('/notice')}>{t('nav.notice')}</Link>
          <Link to={legalLinkFor('terms', locale)} data-testid="footer-terms">
            {t('footer.terms')}
          </Link>
          <Link to={legalLinkFor('privacy', locale)} data-testid="footer-privacy">
            <strong>{t('footer.privacy')}</strong>
          </Link>
          <Link to={legalLinkFor('refund', locale)} data-testid="footer-refund">
            {t('footer.refund')}
          </Link>
        </nav>
        <div className="footer-company" data-testid="footer-company">
          <p>
            {t('footer.support')}: <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
          </p>
          {details.length > 0 ? (
            <p className="footer-details">
              {details.map(([label, value], i) => (
                <span key={label} className="footer-detail">
                  {i > 0 ? <span aria-hidden="true"> · </span> : null}
                  {label}: {value}
                </span>
              ))}
            </p>
          ) : null}
          <p className="footer-copy">© {new Date().getFullYear()} Dewy</p>
        </div>
      </div>
    </footer>
  );
}
