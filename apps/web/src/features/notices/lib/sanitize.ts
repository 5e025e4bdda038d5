import DOMPurify from 'dompurify';
import { isOwnNoticeImage } from './content';

/**
 * The page's own sanitize of notice content, a second line behind the server's (002 §2 "rendered as
 * given"; issue 13: sanitized at write and at read). The same allow-list as the server: headings,
 * paragraphs, lists, quotes, code, basic formatting, links (opened in a new tab with `rel="noopener
 * noreferrer"`) and images from our own notice-file route only. A private DOMPurify instance, so its
 * hooks touch nothing else.
 */
const purifier = DOMPurify(window);

const ALLOWED_TAGS = ['h1', 'h2', 'h3', 'h4', 'p', 'br', 'hr', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'strong', 'b', 'em', 'i', 'u', 's', 'a', 'img', 'span', 'div'];
const ALLOWED_ATTR = ['href', 'title', 'src', 'alt', 'width', 'height', 'target', 'rel'];
/** http(s), mailto and same-site paths; no `javascript:`, `data:` or protocol-relative URLs. */
const ALLOWED_URI_REGEXP = /^(?:https?:|mailto:|\/(?!\/))/i;
// Elements laid out as blocks (images too: the app's base style displays every <img> as a block).
const BLOCKS = new Set(['P', 'H1', 'H2', 'H3', 'H4', 'UL', 'OL', 'LI', 'BLOCKQUOTE', 'PRE', 'DIV', 'HR', 'IMG']);

purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

const isBlock = (n: Node | null) => n !== null && BLOCKS.has(n.nodeName);

/**
 * Whitespace-only text between block elements is dropped: the content box keeps line breaks
 * (`white-space: pre-line`, so a notice typed as plain lines reads as written), and the line breaks an
 * author puts between `<p>`s must not become blank lines.
 */
function dropBlockWhitespace(root: Node): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const drop: Node[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.textContent?.trim() !== '' || n.parentNode?.nodeName === 'PRE') continue;
    const parent = n.parentNode;
    const edgeOfBlock = isBlock(parent) && (n === parent?.firstChild || n === parent?.lastChild);
    if (isBlock(n.previousSibling) || isBlock(n.nextSibling) || edgeOfBlock) drop.push(n);
  }
  for (const n of drop) n.parentNode?.removeChild(n);
}

/** Notice HTML made safe to render with `dangerouslySetInnerHTML` (see the allow-list above). */
export function sanitizeNoticeContent(html: string): string {
  const fragment = purifier.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP, RETURN_DOM_FRAGMENT: true });
  for (const img of fragment.querySelectorAll('img')) if (!isOwnNoticeImage(img.getAttribute('src'))) img.remove();
  dropBlockWhitespace(fragment);
  const box = document.createElement('div');
  box.appendChild(fragment);
  return box.innerHTML;
}
