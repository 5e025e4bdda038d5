import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { localizePath, type Locale } from './locale-path';

/** The current language and a helper that turns a Korean-form path into the current language's form. */
export function useLocale(): { locale: Locale; lp: (path: string) => string } {
  const { i18n } = useTranslation();
  const locale: Locale = i18n.language === 'en' ? 'en' : 'ko';
  const lp = useCallback((path: string) => localizePath(path, locale), [locale]);
  return { locale, lp };
}
