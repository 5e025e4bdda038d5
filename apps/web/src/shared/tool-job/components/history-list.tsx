import type { HistoryImage } from '@dewy/contracts';
import { useTranslation } from 'react-i18next';
import { formatSeoulDateTime } from '../../../lib/format';
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
}

/** A tool's history thumbnails: processing items blurred with an overlay, failed ones marked (001 §4). */
export function HistoryList({ testIdPrefix, emptyText, items, loading, selectedId, onSelect, hasMore = false, loadingMore = false, onLoadMore }: HistoryListProps) {
  const { t, i18n } = useTranslation();
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
              </li>
            );
          })}
        </ul>
      )}
      {hasMore && onLoadMore && !loading ? (
        <div className="history-more">
          <button type="button" className="btn btn-secondary" onClick={onLoadMore} disabled={loadingMore} aria-busy={loadingMore} data-testid={`${testIdPrefix}-history-more`}>
            {loadingMore ? <span className="spinner spinner-sm" /> : null} {t('toolJob.history.loadMore')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
