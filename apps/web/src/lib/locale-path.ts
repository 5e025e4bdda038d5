/**
 * Language and path rules of spec 000 §2/§4: Korean paths are plain, English paths live under /en.
 * Pure functions so they can be unit-tested without a DOM.
 */
import { safeReturnPath, type Locale } from '@dewy/contracts';

export type { Locale };

export const LOCALE_STORAGE_KEY = 'locale';

/** True for `/en` and anything under `/en/`. */
export function isEnglishPath(pathname: string): boolean {
  return pathname === '/en' || pathname === '/en/' || pathname.startsWith('/en/');
}

/** `/en/upscale` → `/upscale`, `/en` → `/`; other paths unchanged. */
export function stripEnPrefix(pathname: string): string {
  if (!isEnglishPath(pathname)) return pathname;
  const rest = pathname.slice(3);
  return rest === '' || rest === '/' ? '/' : rest;
}

/** `/upscale` → `/en/upscale`, `/` → `/en`; already-English paths unchanged. */
export function addEnPrefix(pathname: string): string {
  if (isEnglishPath(pathname)) return pathname;
  if (pathname === '' || pathname === '/') return '/en';
  return `/en${pathname.startsWith('/') ? '' : '/'}${pathname}`;
}

/** The path in the given language's form. */
export function localizePath(pathname: string, locale: Locale): string {
  return locale === 'en' ? addEnPrefix(pathname) : stripEnPrefix(pathname);
}

function asLocale(value: string | null | undefined): Locale | null {
  return value === 'ko' || value === 'en' ? value : null;
}

/**
 * The starting language (spec 000 §4): the stored choice first; otherwise Korean when the browser
 * language starts with `ko`; otherwise English.
 */
export function initialLocale(stored: string | null | undefined, navigatorLanguage: string | null | undefined): Locale {
  const fromStore = asLocale(stored);
  if (fromStore) return fromStore;
  return (navigatorLanguage ?? '').toLowerCase().startsWith('ko') ? 'ko' : 'en';
}

/** An /en path always means English; otherwise the starting language applies. */
export function resolveLocale(pathname: string, stored: string | null | undefined, navigatorLanguage: string | null | undefined): Locale {
  return isEnglishPath(pathname) ? 'en' : initialLocale(stored, navigatorLanguage);
}

/**
 * Where the address must go for a language (spec 000 §2): English paths lacking /en are rewritten to
 * the /en form; null when the path is already right.
 */
export function rewriteForLocale(pathname: string, locale: Locale): string | null {
  if (locale === 'en' && !isEnglishPath(pathname)) return addEnPrefix(pathname);
  return null;
}

/**
 * Where a signed-in visitor of /login or /signup is sent (issue 17): the `next` parameter when
 * the shared return-path rule accepts it (`safeReturnPath` in @dewy/contracts, the one the server's
 * redirects use: normalised, then same origin only; decision 031) and it is not one of the forms
 * itself, else /upscale. Returned in its Korean form.
 */
export function signedInDestination(next: string | null | undefined): string {
  const safe = safeReturnPath(next);
  if (!safe) return '/upscale';
  const path = safe.split(/[?#]/)[0] ?? '';
  return path === '/login' || path === '/signup' ? '/upscale' : safe;
}
