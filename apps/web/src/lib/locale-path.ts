/**
 * Language and path rules of spec 000 §2/§4: Korean paths are plain, English paths live under /en.
 * Pure functions so they can be unit-tested without a DOM.
 */
import type { Locale } from '@dewy/contracts';

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
 * A `next` address (where to go after login) made safe: only a same-site path ('/pricing',
 * '/en/pricing?tab=credits'), returned in its Korean form so the caller can localize it; null for
 * anything else (absolute URLs, protocol-relative '//host', backslashes, control characters).
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  const q = value.search(/[?#]/);
  const path = q === -1 ? value : value.slice(0, q);
  const rest = q === -1 ? '' : value.slice(q);
  return `${stripEnPrefix(path)}${rest}`;
}

/**
 * Where a signed-in visitor of /login or /signup is sent (issue 17): the `next` parameter when
 * {@link safeNextPath} accepts it (same site only: no scheme, no `//`, no backslash, no control
 * characters) and it is not one of the forms itself, else /upscale. Returned in its Korean form.
 */
export function signedInDestination(next: string | null | undefined): string {
  const safe = safeNextPath(next);
  if (!safe) return '/upscale';
  const path = safe.split(/[?#]/)[0] ?? '';
  return path === '/login' || path === '/signup' ? '/upscale' : safe;
}
