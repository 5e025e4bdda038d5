import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { currentLocale, setLocale } from '../lib/i18n';
import { isEnglishPath, rewriteForLocale } from '../lib/locale-path';

/**
 * Keeps the address and the language in step (spec 000 §2): an /en path means English; when the
 * language is English and the path lacks /en, the address is rewritten to the /en form.
 */
export function LocaleSync() {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (isEnglishPath(pathname)) {
      if (currentLocale() !== 'en') setLocale('en');
      return;
    }
    const target = rewriteForLocale(pathname, currentLocale());
    if (target) void navigate(`${target}${search}${hash}`, { replace: true });
  }, [pathname, search, hash, navigate]);
  return null;
}
