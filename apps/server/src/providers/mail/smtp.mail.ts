import { createTransport } from 'nodemailer';
import type { MailMessage, MailProvider, SentMail } from './mail.provider';

/**
 * SMTP through nodemailer: `url` is a connection URL as nodemailer documents it
 * (`smtp://user:pass@host:587`, `smtps://…:465`); `from` is the sender (`MAIL_FROM`).
 */
export function createSmtpMail(url: string, from: string): MailProvider {
  const transport = createTransport(url, { from });
  return {
    kind: 'smtp',
    async send(m: MailMessage): Promise<SentMail> {
      const info = await transport.sendMail({ to: m.to, subject: m.subject, text: m.text, html: m.html });
      return { messageId: info.messageId };
    },
    async close() {
      transport.close();
    },
  };
}
