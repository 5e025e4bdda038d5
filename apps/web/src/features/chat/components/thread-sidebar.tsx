import { useTranslation } from 'react-i18next';
import type { ChatThread } from '@dewy/contracts';

export interface ThreadSidebarProps {
  threads: ChatThread[];
  activeId: string | null;
  loading: boolean;
  loggedIn: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onSelect(id: string): void;
  onNew(): void;
  onDelete(thread: ChatThread): void;
  onLoadMore(): void;
}

/** The thread sidebar (002 §2): new chat, the caller's threads (50 per page, load more), delete per thread. */
export function ThreadSidebar({ threads, activeId, loading, loggedIn, hasMore, loadingMore, onSelect, onNew, onDelete, onLoadMore }: ThreadSidebarProps) {
  const { t } = useTranslation();
  return (
    <nav className="chat-sidebar-inner" aria-label={t('chat.threads')} data-testid="chat-threads">
      <button type="button" className="btn btn-primary chat-new" onClick={onNew} data-testid="chat-new">
        + {t('chat.newChat')}
      </button>
      {!loggedIn ? <p className="chat-sidebar-note">{t('chat.loginToSee')}</p> : null}
      {loggedIn && loading ? <p className="chat-sidebar-note">{t('chat.loading')}</p> : null}
      {loggedIn && !loading && threads.length === 0 ? <p className="chat-sidebar-note">{t('chat.noThreads')}</p> : null}
      <ul className="chat-thread-list">
        {threads.map((th) => ({ ...th, title: th.title || t('chat.untitled') })).map((th) => (
          <li key={th.id} className={`chat-thread ${th.id === activeId ? 'is-active' : ''}`} data-testid="chat-thread">
            <button type="button" className="chat-thread-open" onClick={() => onSelect(th.id)} aria-current={th.id === activeId ? 'page' : undefined} title={th.title}>
              {th.title}
            </button>
            <button type="button" className="chat-thread-delete" onClick={() => onDelete(th)} aria-label={t('chat.delete.label', { title: th.title })} data-testid="chat-thread-delete">
              <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6" />
              </svg>
            </button>
          </li>
        ))}
      </ul>
      {hasMore ? (
        <button type="button" className="btn btn-secondary chat-more" onClick={onLoadMore} disabled={loadingMore}>
          {t('chat.loadMore')}
        </button>
      ) : null}
    </nav>
  );
}
