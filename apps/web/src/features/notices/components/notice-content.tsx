import { useMemo } from 'react';
import { sanitizeNoticeContent } from '../lib/sanitize';

/**
 * A notice's HTML content. The server sanitizes it at write and at read; the page sanitizes it once
 * more (DOMPurify, the same allow-list) before it reaches `dangerouslySetInnerHTML`.
 */
export function NoticeContent({ html }: { html: string }) {
  const safe = useMemo(() => sanitizeNoticeContent(html), [html]);
  return <div className="notice-content" data-testid="notice-content" dangerouslySetInnerHTML={{ __html: safe }} />;
}
