import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
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

/**
 * The catalogues are separate chunks (decision 025): a visitor downloads only the active language's JSON,
 * and the other one only when switching (i18next's backend-module API: `read(language, namespace, cb)`).
 * Both catalogues hold the same keys (locales.test.ts), so no fallback language is loaded alongside.
 */
const lazyCatalogues: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = language === 'en' ? import('../locales/en.json') : import('../locales/ko.json');
    load.then(
      (m) => callback(null, m.default as ResourceKey),
      (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), false),
    );
  },
};

/** Resolves once the start language's catalogue is loaded; main.tsx renders the app after it. */
export const i18nReady: Promise<unknown> = i18n
  .use(lazyCatalogues)
  .use(initReactI18next)
  .init({
    lng: startLocale,
    supportedLngs: ['ko', 'en'],
    fallbackLng: false,
    load: 'languageOnly',
    interpolation: { escapeValue: false },
    returnNull: false,
    // No vendor advertisement in every visitor's console.
    showSupportNotice: false,
  });

/**
 * The chosen language, set at once by {@link setLocale}: i18next's own `language` changes only after the
 * new catalogue chunk has arrived, and LocaleSync must not read the old one meanwhile (it would send the
 * address back to the old language).
 */
let chosen: Locale = startLocale;

/** The current language as the product knows it (the one last chosen, even while its catalogue loads). */
export function currentLocale(): Locale {
  return chosen;
}

/** Switch language: stores the choice (localStorage 'locale'), sets the cookie and `<html lang>`. */
export function setLocale(locale: Locale): void {
  chosen = locale;
  try {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  reflectLocale(locale);
  if (i18n.language !== locale) void i18n.changeLanguage(locale);
}

export { i18n };
