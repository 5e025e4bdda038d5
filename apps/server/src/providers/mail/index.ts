import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config';
import type { MailProvider } from './mail.provider';
import { createOutboxMail } from './outbox.mail';
import { createSmtpMail } from './smtp.mail';

export type { MailMessage, MailProvider, SentMail } from './mail.provider';

/** The outbox folder of the embedded mail provider: `$DATA_DIR/outbox`. */
export function outboxDir(config: Pick<AppConfig, 'dataDir'>): string {
  return path.join(config.dataDir, 'outbox');
}

/** SMTP when `SMTP_URL` is set, else the `.eml` outbox in `$DATA_DIR/outbox/` (GUIDE §1). */
export function createMailProvider(config: AppConfig, log: FastifyBaseLogger): MailProvider {
  if (config.mail.smtpUrl) return createSmtpMail(config.mail.smtpUrl, config.mail.from);
  return createOutboxMail(outboxDir(config), config.mail.from, (file) => log.info({ file }, 'mail written to the outbox'));
}
