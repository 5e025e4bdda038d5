/**
 * Outgoing e-mail, shaped by our use (GUIDE §1): one message in, sent or written out. Adapters: SMTP
 * through nodemailer (`SMTP_URL`), or the embedded outbox that writes each message as an `.eml` file
 * under `$DATA_DIR/outbox/` (issue 14, decision 020).
 */
export interface MailMessage {
  /** One recipient address. */
  to: string;
  subject: string;
  /** Plain-text body (always sent). */
  text: string;
  /** HTML body (sent as the alternative part). */
  html: string;
}

export interface SentMail {
  /** The Message-ID the transport gave the message. */
  messageId: string;
  /** Outbox only: absolute path of the written `.eml` file. */
  path?: string;
}

export interface MailProvider {
  readonly kind: 'smtp' | 'outbox';
  /** Sends one message; rejects when the transport refuses it. */
  send(message: MailMessage): Promise<SentMail>;
  close(): Promise<void>;
}
