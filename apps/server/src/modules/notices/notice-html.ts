import sanitizeHtml from 'sanitize-html';

/** Path prefix of notice images served by our own route; the only image source a notice may use. */
export const NOTICE_FILE_PATH = '/api/notices/files/';

const OWN_IMAGE = /^\/api\/notices\/files\/\d{1,10}$/;

/**
 * The allow-list of notice HTML (issue 13): headings, paragraphs, lists, quotes, code, basic formatting,
 * links (http/https/mailto, opened in a new tab with `rel="noopener noreferrer"`) and images from our own
 * notice-file route only. Everything else — script, style, iframes, forms, SVG, event handlers, style
 * attributes, `javascript:`/`data:` URLs, protocol-relative URLs — is dropped (tags with their text for
 * script/style; other unknown tags keep their text). sanitize-html parses with htmlparser2, so
 * malformed markup is normalised rather than passed through [OWASP XSS Filter Evasion Cheat Sheet].
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['h1', 'h2', 'h3', 'h4', 'p', 'br', 'hr', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'strong', 'b', 'em', 'i', 'u', 's', 'a', 'img', 'span', 'div'],
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'iframe', 'object', 'embed', 'svg', 'math', 'template'],
  allowedAttributes: { a: ['href', 'title'], img: ['src', 'alt', 'width', 'height'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  enforceHtmlBoundary: true,
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } }),
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !OWN_IMAGE.test(frame.attribs.src ?? ''),
};
// `target`/`rel` are set by the transform above, never taken from the input.
OPTIONS.allowedAttributes = { ...OPTIONS.allowedAttributes, a: ['href', 'title', 'target', 'rel'] };

/**
 * Sanitizes notice HTML with the allow-list above. Applied when a notice is written and again when it
 * is read (a row written before a rule change is still served safe).
 * @param html administrator-written HTML (any string)
 * @returns safe HTML (may be empty when nothing allowed remains)
 */
export function sanitizeNoticeHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** True when the HTML shows nothing a reader could see (no text, no image). */
export function isBlankHtml(html: string): boolean {
  return sanitizeHtml(html, { allowedTags: ['img'], allowedAttributes: { img: ['src'] } }).replace(/&nbsp;|\s/g, '') === '';
}
