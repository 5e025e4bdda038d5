import { useEffect, useRef } from 'react';
import { DEFAULT_CREDITS_DISPLAY } from '@dewy/contracts';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { setLocale } from '../../lib/i18n';
import { addEnPrefix, stripEnPrefix, type Locale } from '../../lib/locale-path';
import { useSession } from '../../lib/session';
import { useLocale } from '../../lib/use-locale';
import { DropIcon } from '../../components/ui/drop-icon';
import { AiMenu } from './ai-menu';
import './header.css';

/**
 * Publishes the sticky header's height as `--dw-header-h` on <html> (it wraps to two rows on phones), so
 * overlays can start below it: the toasts never cover its controls (issue 17).
 */
function useHeaderHeightVar() {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty('--dw-header-h', `${Math.ceil(el.getBoundingClientRect().height)}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return ref;
}

/** The site header of spec 000 §2. */
export function Header() {
  const { t } = useTranslation();
  const { lp, locale } = useLocale();
  const { user, status, signOut } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const loading = status === 'loading';

  const switchTo = (next: Locale) => {
    setLocale(next);
    const path = next === 'en' ? addEnPrefix(location.pathname) : stripEnPrefix(location.pathname);
    void navigate(`${path}${location.search}${location.hash}`);
  };

  // Leave the page first so a signed-in-only page does not react to the cleared user.
  const logout = async () => {
    await navigate(lp('/'));
    await signOut();
  };

  const credits = user ? (user.credits ?? DEFAULT_CREDITS_DISPLAY) : null;
  const headerRef = useHeaderHeightVar();

  return (
    <header className="app-header" data-testid="header" ref={headerRef}>
      <div className="container header-inner">
        <Link to={lp('/')} className="brand" aria-label="Dewy" data-testid="brand">
          <svg viewBox="0 0 64 64" width="28" height="28" aria-hidden="true">
            <defs>
              <linearGradient id="brand-drop" x1="0" y1="0" x2="0" y2="1">
                <stop offset="0" stopColor="#5eead4" />
                <stop offset="1" stopColor="#0f766e" />
              </linearGradient>
            </defs>
            <path d="M32 4C32 4 12 28 12 40a20 20 0 0 0 40 0C52 28 32 4 32 4z" fill="url(#brand-drop)" />
            <ellipse cx="25" cy="40" rx="5" ry="8" fill="#fff" opacity=".45" />
          </svg>
          <span className={`brand-title ${loading ? 'is-loading' : ''}`}>{loading ? t('brand.loadingTitle') : t('brand.title')}</span>
        </Link>

        {!loading ? (
          <nav className="header-nav" aria-label={t('nav.label')} data-testid="header-nav">
            <NavLink to={lp('/')} end className="nav-link">
              {t('nav.home')}
            </NavLink>
            <AiMenu />
            <NavLink to={lp('/notice')} className="nav-link">
              {t('nav.notice')}
            </NavLink>
            <NavLink to={lp('/pricing')} className="nav-link">
              {t('nav.pricing')}
            </NavLink>
            {user ? (
              <NavLink to={lp('/mypage')} className="nav-link" data-testid="nav-mypage">
                {t('nav.mypage')}
              </NavLink>
            ) : (
              <NavLink to={lp('/login')} className="nav-link" data-testid="nav-login">
                {t('nav.login')}
              </NavLink>
            )}
          </nav>
        ) : (
          <div className="header-nav" />
        )}

        <div className="header-actions">
          {user && !loading ? (
            <span className="credit-chip" title={t('header.credits')} data-testid="header-balance">
              <DropIcon />
              <span className="credit-value" data-testid="header-balance-value">
                {credits?.toLocaleString()}
              </span>
              <span className="credit-unit">{t('header.creditUnit')}</span>
            </span>
          ) : null}
          <div className="lang-switch" role="group" aria-label={t('header.language')}>
            <button type="button" className={locale === 'ko' ? 'is-active' : ''} aria-pressed={locale === 'ko'} onClick={() => switchTo('ko')} data-testid="lang-kr">
              KR
            </button>
            <button type="button" className={locale === 'en' ? 'is-active' : ''} aria-pressed={locale === 'en'} onClick={() => switchTo('en')} data-testid="lang-en">
              EN
            </button>
          </div>
          {user && !loading ? (
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => void logout()} data-testid="logout-button">
              {t('nav.logout')}
            </button>
          ) : null}
        </div>
      </div>
    </header>
  );
}
