import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * A chat answer's Markdown as safe HTML (issue 15): `marked` (GitHub-flavoured, single line breaks kept)
 * renders it, then a private DOMPurify instance keeps only text formatting, lists, tables, code and links
 * (opened in a new tab, `rel="noopener noreferrer"`, http(s)/mailto only). Raw HTML the model writes is
 * removed, and so are images (a model must not make the page load outside addresses).
 */
const purifier = DOMPurify(window);

const ALLOWED_TAGS = ['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'strong', 'em', 'del', 's', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td'];
const ALLOWED_ATTR = ['href', 'title', 'target', 'rel', 'start', 'align'];
const ALLOWED_URI_REGEXP = /^(?:https?:|mailto:)/i;

purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  return purifier.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP });
}
