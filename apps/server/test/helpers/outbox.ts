import fs from 'node:fs';
import path from 'node:path';

/** One `.eml` of the outbox, decoded enough for tests: headers and the decoded text of every part. */
export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  /** The decoded bodies (text and HTML), concatenated. */
  body: string;
}

function decodePart(headers: string, body: string): string {
  const cte = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (cte === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (cte === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => `%${h}`);
    try {
      return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
    } catch {
      return bytes;
    }
  }
  return body;
}

/** Decodes an RFC 2047 encoded-word header (UTF-8, B or Q). */
function decodeHeader(v: string): string {
  return v.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, enc: string, text: string) =>
    enc.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decodeURIComponent(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, '%$1')),
  );
}

/** Parses a message written by the outbox (nodemailer's stream transport): multipart/alternative of text and HTML. */
export function parseEml(file: string): OutboxMail {
  const raw = fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  const split = raw.indexOf('\n\n');
  const head = raw.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const rest = raw.slice(split + 2);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const boundary = /boundary="?([^";\n]+)"?/i.exec(head)?.[1];
  let body: string;
  if (boundary) {
    body = rest
      .split(`--${boundary}`)
      .slice(1)
      .filter((p) => !p.startsWith('--'))
      .map((p) => {
        const i = p.indexOf('\n\n');
        return decodePart(p.slice(0, i), p.slice(i + 2));
      })
      .join('\n');
  } else body = decodePart(head, rest);
  return { file, to: header('To'), subject: decodeHeader(header('Subject')), body };
}

/** Every mail of an outbox folder, oldest first. */
export function readOutbox(dir: string): OutboxMail[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => parseEml(path.join(dir, f)));
}

/** The token of the newest link `/<page>?token=…` mailed to `to`, or undefined. */
export function latestLinkToken(dir: string, to: string, page: 'verify-email' | 'reset-password'): string | undefined {
  const re = new RegExp(`/${page}\\?token=([A-Za-z0-9_.%-]+)`);
  const mails = readOutbox(dir).filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
  for (const m of mails.reverse()) {
    const hit = re.exec(m.body);
    if (hit) return decodeURIComponent(hit[1]!);
  }
  return undefined;
}
