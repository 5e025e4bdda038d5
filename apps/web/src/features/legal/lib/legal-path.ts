import type { Locale } from '@dewy/contracts';
import { isEnglishPath, stripEnPrefix } from '../../../lib/locale-path';
import type { LegalDocId } from '../content/types';

/**
 * Which legal document a path shows and in which language (spec 002 §2). The path decides: a `/kr` or
 * `/en` ending fixes the language (`/terms/en` is English even in a Korean session, `/en/terms/kr` —
 * what a Korean link becomes in an English session — is Korean); otherwise an `/en` prefix means
 * English, and a bare `/terms` follows the session's language.
 */
export interface LegalRoute {
  doc: LegalDocId;
  locale: Locale;
}

const DOCS: readonly LegalDocId[] = ['terms', 'privacy', 'refund'];

/** The document and language of a legal path; null when the path is not a legal page. */
export function legalRoute(pathname: string, sessionLocale: Locale): LegalRoute | null {
  const parts = stripEnPrefix(pathname).split('/').filter(Boolean);
  const doc = DOCS.find((d) => d === parts[0]);
  if (!doc || parts.length > 2) return null;
  const suffix = parts[1];
  if (suffix === 'kr') return { doc, locale: 'ko' };
  if (suffix === 'en') return { doc, locale: 'en' };
  if (suffix !== undefined) return null;
  return { doc, locale: isEnglishPath(pathname) ? 'en' : sessionLocale };
}

/** Where the language switch goes: the matching document path ending in kr or en (`/terms/kr`, `/privacy/en`). */
export function legalSwitchPath(doc: LegalDocId, locale: Locale): string {
  return `/${doc}/${locale === 'en' ? 'en' : 'kr'}`;
}

/** The link to a legal document for a site in `locale` (footer, cross links): `/terms/kr` or `/en/terms`. */
export function legalLinkFor(doc: LegalDocId, locale: Locale): string {
  return locale === 'en' ? `/en/${doc}` : `/${doc}/kr`;
}
