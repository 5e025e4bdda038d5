import fs from 'node:fs';
import path from 'node:path';

/**
 * The e2e servers' outboxes (`$DATA_DIR/outbox/*.eml`, decision 020): the embedded mail provider writes
 * every message there, so the specs open the links a customer would click. One per app server
 * (E2E_DATA_DIR, E2E_GLOBAL_DATA_DIR: see playwright.config.ts); the specs' addresses are unique, so a
 * spec finds its mail in whichever its server wrote.
 */
export function outboxDirs(): string[] {
  const dirs = [process.env.E2E_DATA_DIR, process.env.E2E_GLOBAL_DATA_DIR].filter((d): d is string => !!d);
  if (!dirs.length) throw new Error('E2E_DATA_DIR is not set (see playwright.config.ts)');
  return dirs.map((d) => path.join(d, 'outbox'));
}

function decodePart(headers: string, body: string): string {
  const cte = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (cte === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (cte === 'quoted-printable') return Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  return body;
}

/** A header's RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) as text. */
function decodeHeader(value: string): string {
  return value.replace(/=\?([\w-]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_m, _charset: string, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
  );
}

/** The decoded text of every part of one `.eml`, its To and its Subject. */
function readEml(file: string): { to: string; subject: string; body: string } {
  const raw = fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  const split = raw.indexOf('\n\n');
  const head = raw.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const rest = raw.slice(split + 2);
  const to = /^To:\s*(.*)$/im.exec(head)?.[1] ?? '';
  const subject = decodeHeader(/^Subject:\s*(.*)$/im.exec(head)?.[1] ?? '');
  const boundary = /boundary="?([^";\n]+)"?/i.exec(head)?.[1];
  const body = boundary
    ? rest
        .split(`--${boundary}`)
        .slice(1)
        .map((p) => {
          const i = p.indexOf('\n\n');
          return i < 0 ? '' : decodePart(p.slice(0, i), p.slice(i + 2));
        })
        .join('\n')
    : decodePart(head, rest);
  return { to, subject, body };
}

/** Every message mailed to `email` so far (subject and decoded text), oldest first, from every server's outbox. */
export function mailsTo(email: string, dirs: string[] = outboxDirs()): { subject: string; body: string }[] {
  return dirs
    .filter((dir) => fs.existsSync(dir))
    .flatMap((dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).map((f) => ({ f, file: path.join(dir, f) })))
    .sort((a, b) => (a.f < b.f ? -1 : a.f > b.f ? 1 : 0))
    .map(({ file }) => readEml(file))
    .filter((m) => m.to.toLowerCase().includes(email.toLowerCase()))
    .map(({ subject, body }) => ({ subject, body }));
}

/**
 * The newest link to `/<page>?token=…` (or `/en/<page>…`) mailed to `email`, as an absolute URL, or
 * undefined when none has been written yet. `dirs`: the outboxes to read (default every server's; the
 * file names sort by time across them).
 */
export function latestMailedLink(email: string, page: 'verify-email' | 'reset-password', dirs: string[] = outboxDirs()): string | undefined {
  const files = dirs
    .filter((dir) => fs.existsSync(dir))
    .flatMap((dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).map((f) => ({ f, file: path.join(dir, f) })))
    .sort((a, b) => (a.f < b.f ? 1 : a.f > b.f ? -1 : 0));
  const re = new RegExp(`https?://[^\\s"<>]+/${page}\\?token=[A-Za-z0-9_.%-]+`);
  for (const { file } of files) {
    const m = readEml(file);
    if (!m.to.toLowerCase().includes(email.toLowerCase())) continue;
    const hit = re.exec(m.body);
    if (hit) return hit[0];
  }
  return undefined;
}
