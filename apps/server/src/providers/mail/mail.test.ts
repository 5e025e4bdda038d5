import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEml } from '../../../test/helpers/outbox';
import { createOutboxMail } from './outbox.mail';
import { createSmtpMail } from './smtp.mail';
import { passwordResetMail, verificationMail } from './templates';

/** The two mail adapters (decision 020): SMTP against a local smtp-server, and the `.eml` outbox. */
describe('mail providers', () => {
  const received: { from: string; to: string[]; raw: string; user?: string }[] = [];
  let server: SMTPServer;
  let port = 0;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _session, cb) {
        if (auth.username === 'mailer' && auth.password === 's3cret') cb(null, { user: 'mailer' });
        else cb(new Error('bad credentials'));
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8'), user: session.user as string | undefined });
          cb();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('SMTP: authenticates with the URL credentials and delivers text + HTML from MAIL_FROM, in the message language', async () => {
    const mail = createSmtpMail(`smtp://mailer:s3cret@127.0.0.1:${port}`, 'Dewy <no-reply@dewy.test>');
    const sent = await mail.send(verificationMail('ko', 'mina@example.com', { name: '미나', url: 'https://dewy.test/verify-email?token=abc.def', hours: 48, welcomeCredits: 300 }));
    await mail.close();
    expect(sent.messageId).toMatch(/@/);
    expect(received).toHaveLength(1);
    const m = received[0]!;
    expect(m).toMatchObject({ from: 'no-reply@dewy.test', to: ['mina@example.com'], user: 'mailer' });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-smtp-'));
    fs.writeFileSync(path.join(dir, 'm.eml'), m.raw);
    const parsed = parseEml(path.join(dir, 'm.eml'));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(parsed.subject).toBe('[Dewy] 이메일 주소를 인증해주세요');
    expect(m.raw).toMatch(/multipart\/alternative/);
    expect(m.raw).toMatch(/text\/plain/);
    expect(m.raw).toMatch(/text\/html/);
    expect(parsed.body).toContain('가입 축하 크레딧 300개');
    expect(parsed.body).toContain('https://dewy.test/verify-email?token=abc.def');
  });

  it('SMTP: a refused login rejects the send', async () => {
    const mail = createSmtpMail(`smtp://mailer:wrong@127.0.0.1:${port}`, 'no-reply@dewy.test');
    await expect(mail.send(passwordResetMail('en', 'a@example.com', { url: 'https://x.test/r', minutes: 30 }))).rejects.toThrow();
    await mail.close();
  });

  it('outbox: one .eml per message with text and HTML, path logged, HTML escaped', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-outbox-'));
    const logged: string[] = [];
    const mail = createOutboxMail(path.join(dir, 'outbox'), 'Dewy <no-reply@localhost>', (p) => logged.push(p));
    const a = await mail.send(passwordResetMail('en', 'bob@example.com', { url: 'https://dewy.test/reset-password?token=t1&x="<b>"', minutes: 30 }));
    const b = await mail.send(verificationMail('en', '<script>@example.com', { name: '<b>Bob</b>', url: 'https://dewy.test/v', hours: 48, welcomeCredits: 300 }));
    expect(logged).toEqual([a.path, b.path]);
    expect(fs.readdirSync(path.join(dir, 'outbox')).filter((f) => f.endsWith('.eml'))).toHaveLength(2);
    const pa = parseEml(a.path!);
    expect(pa).toMatchObject({ to: 'bob@example.com', subject: '[Dewy] Reset your password' });
    expect(pa.body).toContain('It works once, for 30 minutes');
    expect(pa.body).toContain('&quot;&lt;b&gt;&quot;'); // the HTML part escapes the URL
    const pb = parseEml(b.path!);
    expect(pb.body).toContain('Hi &lt;b&gt;Bob&lt;/b&gt;');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
