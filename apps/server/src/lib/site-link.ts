import type { Locale } from '@dewy/contracts';
import type { AppConfig } from '../config';

/**
 * An absolute link on our site in a language (`/en` prefix for English), e.g. `/verify-email?token=…`,
 * for mails (account, billing, reminders). Below the modules, so that each mail writer uses the same rule.
 */
export function siteLink(config: Pick<AppConfig, 'publicUrl'>, locale: Locale, pathAndQuery: string): string {
  return `${config.publicUrl}${locale === 'en' ? '/en' : ''}${pathAndQuery}`;
}
