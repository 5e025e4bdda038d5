/**
 * Pure helpers of the notice content (HTML written in a textarea, spec 002 §2/§5): where an inserted
 * image goes, how its tag is written, and which image sources a notice may show.
 */

/** A notice image served by our own route (the server's allow-list admits no other source). */
const OWN_IMAGE = /^\/api\/notices\/files\/\d{1,10}$/;

/** True when `src` is an image of our own notice-file route (`/api/notices/files/<id>`). */
export function isOwnNoticeImage(src: string | null | undefined): boolean {
  return OWN_IMAGE.test(src ?? '');
}

/** Escapes text for an HTML attribute value in double quotes. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The tag the editor inserts for an uploaded image: `<img src="…" alt="…">` (alt from the file name, without its extension). */
export function imageTag(url: string, fileName = ''): string {
  const alt = fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '').slice(0, 80);
  return `<img src="${escapeAttribute(url)}" alt="${escapeAttribute(alt)}">`;
}

/**
 * Inserts `snippet` in `value` in place of the selection [start, end), on a line of its own (a line
 * break is added before and after where the neighbouring text does not already have one).
 * @returns the new value and the caret position just after the inserted snippet
 */
export function insertOnOwnLine(value: string, start: number, end: number, snippet: string): { value: string; caret: number } {
  const s = Math.max(0, Math.min(start, value.length));
  const e = Math.max(s, Math.min(end, value.length));
  const before = value.slice(0, s);
  const after = value.slice(e);
  const lead = before === '' || before.endsWith('\n') ? '' : '\n';
  const trail = after.startsWith('\n') ? '' : '\n';
  const inserted = `${lead}${snippet}${trail}`;
  return { value: `${before}${inserted}${after}`, caret: before.length + inserted.length };
}
