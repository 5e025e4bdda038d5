import type { AppServices } from '../../context';

/** What the account services use: the context's database, mail, log, payments, config and app secret. */
export type AccountServices = Pick<AppServices, 'config' | 'secret' | 'database' | 'mail' | 'log' | 'payments'>;
