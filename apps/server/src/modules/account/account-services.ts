import type { Locale } from '@dewy/contracts';
import type { AppServices } from '../../context';

/** What the account services use: the context's database, mail, log, payments and config, plus the app secret. */
export type AccountServices = Pick<AppServices, 'config' | 'database' | 'mail' | 'log' | 'payments'> & { secret: string };

/** An absolute link on our site in a language (`/en` prefix for English), e.g. `/verify-email?token=…`. */
export function siteLink(config: AppServices['config'], locale: Locale, pathAndQuery: string): string {
  return `${config.publicUrl}${locale === 'en' ? '/en' : ''}${pathAndQuery}`;
}
