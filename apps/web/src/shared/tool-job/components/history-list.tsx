import type { HistoryImage } from '@dewy/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/icons';
import { formatSeoulDateTime } from '../../../lib/format';
import { DeleteHistoryDialog } from './delete-history-dialog';
import './tool-job.css';

export interface HistoryListProps {
  /** The section is `<prefix>-history`; items are `history-item` with data-history-id and data-status. */
  testIdPrefix: string;
  /** The tool's words for an empty history. */
  emptyText: string;
  items: HistoryImage[];
  loading: boolean;
  /** The selected item's id (a workspace's selectedKey). */
  selectedId: number | string | null;
  onSelect: (item: HistoryImage) => void;
  /** A paged list (001 §7, face edit): shows a "load more" button (`<prefix>-history-more`) while true. */
  hasMore?: boolean;
  loadingMore?: boolean;
  onLoadMore?: () => void;
  /**
   * Infinite scroll (the retouch workspace lists all its items, 001 §7): the next page loads by itself
   * when the end of the list comes near the view; the button stays for keyboards and as a fallback.
   */
  autoLoadMore?: boolean;
  /**
   * Delete one item for good (issue 28, point 12): each item of a settled job gets a delete button
   * (`<prefix>-history-delete`) that asks first; absent: no delete buttons. A rejection keeps the item.
   */
  onDelete?: (item: HistoryImage) => Promise<void>;
}

/** How near (px) the end of the list may come to the view before the next page is read. */
const AUTO_LOAD_MARGIN_PX = 400;

/** A tool's history thumbnails: processing items blurred with an overlay, failed ones marked (001 §4). */
export function HistoryList({ testIdPrefix, emptyText, items, loading, selectedId, onSelect, hasMore = false, loadingMore = false, onLoadMore, autoLoadMore = false, onDelete }: HistoryListProps) {
  const { t, i18n } = useTranslation();
  const [deleting, setDeleting] = useState<HistoryImage | null>(null);
  const moreRef = useRef<HTMLDivElement>(null);
  const loadMoreRef = useRef(onLoadMore);
  useEffect(() => {
    loadMoreRef.current = onLoadMore;
  });
  // The "load more" row in view (or near it) reads the next page; observed again after each page, so a
  // list that still ends in view goes on loading until it fills the view or ends.
  useEffect(() => {
    const el = moreRef.current;
    if (!autoLoadMore || !el || !hasMore || loadingMore || loading || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        loadMoreRef.current?.();
      }
    }, { rootMargin: `${AUTO_LOAD_MARGIN_PX}px` });
    observer.observe(el);
    return () => observer.disconnect();
  }, [autoLoadMore, hasMore, loadingMore, loading, items.length]);
  // Asia/Seoul with the zone named (001 §2, issue 17): 'May 3, 2026, 15:04 KST'.
  const when = (iso: string) => formatSeoulDateTime(iso, i18n.language === 'en' ? 'en' : 'ko');
  return (
    <section className="history" aria-labelledby={`${testIdPrefix}-history-title`} data-testid={`${testIdPrefix}-history`}>
      <h2 id={`${testIdPrefix}-history-title`}>{t('toolJob.history.title')}</h2>
      {loading ? (
        <div className="history-empty">
          <div className="spinner" />
        </div>
      ) : items.length === 0 ? (
        <p className="history-empty">{emptyText}</p>
      ) : (
        <ul className="history-grid">
          {items.map((item) => {
            const thumb = item.thumbnail_url ?? item.image_url ?? item.original_image_url;
            return (
              <li key={item.id}>
                <button
                  type="button"
                  className={`history-item status-${item.status} ${selectedId === item.id ? 'is-selected' : ''}`}
                  onClick={() => onSelect(item)}
                  data-testid="history-item"
                  data-history-id={item.id}
                  data-status={item.status}
                  aria-label={`${t(`toolJob.history.status.${item.status}`)} · ${when(item.created_at)}`}
                >
                  {thumb ? <img src={thumb} alt="" loading="lazy" /> : <span className="history-noimg" />}
                  {item.expired_at ? (
                    <span className="history-overlay" data-testid="history-expired">{t('toolJob.history.expired')}</span>
                  ) : item.status !== 'completed' ? (
                    <span className="history-overlay">{t(`toolJob.history.status.${item.status}`)}</span>
                  ) : null}
                  <time className="history-date" dateTime={item.created_at}>
                    {when(item.created_at)}
                  </time>
                </button>
                {onDelete && item.status !== 'processing' ? (
                  <button
                    type="button"
                    className="history-delete"
                    onClick={() => setDeleting(item)}
                    aria-label={t('toolJob.history.deleteLabel', { date: when(item.created_at) })}
                    title={t('toolJob.history.delete')}
                    data-testid={`${testIdPrefix}-history-delete`}
                  >
                    <Icon name="trash" size={14} />
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {hasMore && onLoadMore && !loading ? (
        <div className="history-more" ref={moreRef}>
          <button type="button" className="btn btn-secondary" onClick={onLoadMore} disabled={loadingMore} aria-busy={loadingMore} data-testid={`${testIdPrefix}-history-more`}>
            {loadingMore ? <span className="spinner spinner-sm" /> : null} {t('toolJob.history.loadMore')}
          </button>
        </div>
      ) : null}
      {onDelete ? (
        <DeleteHistoryDialog
          open={deleting !== null}
          count={1}
          testIdPrefix={`${testIdPrefix}-history`}
          onOpenChange={(open) => (open ? undefined : setDeleting(null))}
          onConfirm={async () => {
            if (deleting) await onDelete(deleting);
          }}
        />
      ) : null}
    </section>
  );
}
