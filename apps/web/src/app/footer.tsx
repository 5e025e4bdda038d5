import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SUPPORT_EMAIL } from '../lib/config';
import { useLocale } from '../lib/use-locale';

/** Footer links of spec 000 §2 (landing): /, /upscale, /pricing, legal pages, support e-mail, company. */
export function Footer() {
  const { t } = useTranslation();
  const { lp } = useLocale();
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
          <Link to="/terms/kr">{t('footer.terms')}</Link>
          <Link to="/privacy/kr">{t('footer.privacy')}</Link>
          <Link to="/refund/kr">{t('footer.refund')}</Link>
        </nav>
        <div className="footer-company">
          <p>
            {t('footer.support')}: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
          </p>
          <p>{t('footer.company')}</p>
          <p className="footer-copy">© {new Date().getFullYear()} Dewy</p>
        </div>
      </div>
    </footer>
  );
}
