import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { renderMarkdown } from '../lib/markdown';
import type { ShownMessage } from '../lib/use-chat';

function Bubble({ m }: { m: ShownMessage }) {
  const { t } = useTranslation();
  // Answers are Markdown rendered through marked + DOMPurify; the user's own text is shown as plain text.
  const html = useMemo(() => (m.role === 'assistant' && m.text ? renderMarkdown(m.text) : null), [m.role, m.text]);
  const image = m.localImage ?? m.image_url;
  return (
    <li className={`chat-msg chat-msg-${m.role}`} data-testid={`chat-msg-${m.role}`}>
      <div className="chat-bubble">
        {image ? <img className="chat-msg-image" src={image} alt={t('chat.attachedImage')} referrerPolicy="no-referrer" /> : null}
        {html !== null ? (
          <div className="chat-markdown" dangerouslySetInnerHTML={{ __html: html }} />
        ) : m.text ? (
          <p className="chat-plain">{m.text}</p>
        ) : null}
        {m.streaming && !m.text ? (
          <span className="chat-typing" aria-label={t('chat.thinking')}>
            <i />
            <i />
            <i />
          </span>
        ) : null}
      </div>
    </li>
  );
}

/** The message list (002 §2): oldest first, 100 per page with "earlier messages", kept scrolled to the newest. */
export function MessageList({ messages, hasMore, loading, onLoadEarlier, empty }: { messages: ShownMessage[]; hasMore: boolean; loading: boolean; onLoadEarlier(): void; empty: React.ReactNode }) {
  const { t } = useTranslation();
  const end = useRef<HTMLDivElement>(null);
  const last = messages[messages.length - 1];
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, last?.text]);
  return (
    <div className="chat-messages" data-testid="chat-messages" aria-live="polite" aria-busy={loading}>
      {hasMore ? (
        <button type="button" className="btn btn-secondary chat-earlier" onClick={onLoadEarlier}>
          {t('chat.earlier')}
        </button>
      ) : null}
      {loading ? <p className="chat-center-note">{t('chat.loading')}</p> : null}
      {!loading && messages.length === 0 ? empty : null}
      <ol className="chat-msg-list">
        {messages.map((m) => (
          <Bubble key={`${m.id}-${m.created_at}`} m={m} />
        ))}
      </ol>
      <div ref={end} />
    </div>
  );
}
