import type { Locale } from '@dewy/contracts';

/**
 * The caller's language for server messages: the `locale` cookie the page sets (ko|en), else the
 * first Accept-Language tag (ko… → ko, anything else → en), else Korean (the default paths are Korean).
 */
export function requestLocale(headers: Record<string, string | string[] | undefined>, cookies?: Record<string, string | undefined>): Locale {
  const c = cookies?.locale;
  if (c === 'ko' || c === 'en') return c;
  const al = headers['accept-language'];
  const first = (Array.isArray(al) ? al[0] : al)?.split(',')[0]?.trim().toLowerCase();
  if (!first) return 'ko';
  return first.startsWith('ko') ? 'ko' : 'en';
}
