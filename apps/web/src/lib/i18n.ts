import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import ko from '../locales/ko.json';
import en from '../locales/en.json';
import { LOCALE_STORAGE_KEY, resolveLocale, type Locale } from './locale-path';

function readStoredLocale(): string | null {
  try {
    return window.localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Mirror the language where the server and assistive tech read it: `locale` cookie and `<html lang>`. */
function reflectLocale(locale: Locale): void {
  document.documentElement.lang = locale;
  document.cookie = `locale=${locale}; path=/; max-age=31536000; SameSite=Lax`;
}

const startLocale = resolveLocale(window.location.pathname, readStoredLocale(), window.navigator.language);
reflectLocale(startLocale);

void i18n.use(initReactI18next).init({
  resources: { ko: { translation: ko }, en: { translation: en } },
  lng: startLocale,
  fallbackLng: 'ko',
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** The current language as the product knows it. */
export function currentLocale(): Locale {
  return i18n.language === 'en' ? 'en' : 'ko';
}

/** Switch language: stores the choice (localStorage 'locale'), sets the cookie and `<html lang>`. */
export function setLocale(locale: Locale): void {
  try {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  reflectLocale(locale);
  if (i18n.language !== locale) void i18n.changeLanguage(locale);
}

export { i18n };
