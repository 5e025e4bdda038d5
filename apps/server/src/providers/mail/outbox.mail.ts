import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import type { MailMessage, MailProvider, SentMail } from './mail.provider';

/**
 * The embedded default: nodemailer's stream transport builds the full RFC 5322 message (text + HTML
 * alternatives), written as `<dir>/<ISO time>-<random>.eml`; the path is logged so a newcomer can open
 * the link without a mail server. File names sort by time.
 */
export function createOutboxMail(dir: string, from: string, log: (path: string) => void): MailProvider {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, { from });
  return {
    kind: 'outbox',
    async send(m: MailMessage): Promise<SentMail> {
      const info = await transport.sendMail({ to: m.to, subject: m.subject, text: m.text, html: m.html });
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      log(file);
      return { messageId: info.messageId, path: file };
    },
    async close() {},
  };
}
