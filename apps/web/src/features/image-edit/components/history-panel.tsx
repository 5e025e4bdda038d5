import type { SeedreamHistoryItem } from '@dewy/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface HistoryPanelProps {
  items: readonly SeedreamHistoryItem[];
  loading: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onSearch: (q: string) => void;
  onLoadMore: () => void;
  onSelect: (item: SeedreamHistoryItem) => void;
}

/** The image-edit history (002 §2, §7): search by prompt, 9 then 5 per page with Load more. */
export function HistoryPanel({ items, loading, hasMore, loadingMore, onSearch, onLoadMore, onSelect }: HistoryPanelProps) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  return (
    <section className="image-edit-history card" data-testid="image-edit-history">
      <div className="image-edit-history-head">
        <h2>{t('imageEdit.history.title')}</h2>
        <form
          className="image-edit-history-search"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            onSearch(q.trim());
          }}
        >
          <input type="search" value={q} placeholder={t('imageEdit.history.searchPlaceholder')} aria-label={t('imageEdit.history.search')} onChange={(e) => setQ(e.target.value)} data-testid="image-edit-history-search" />
          <button type="submit" className="btn btn-secondary btn-sm">
            {t('imageEdit.history.search')}
          </button>
        </form>
      </div>
      {loading ? <p className="image-edit-hint">{t('imageEdit.history.loading')}</p> : null}
      {!loading && items.length === 0 ? <p className="image-edit-hint" data-testid="image-edit-history-empty">{t('imageEdit.history.empty')}</p> : null}
      <ul className="image-edit-history-list">
        {items.map((item) => (
          <li key={item.id}>
            <button type="button" className="image-edit-history-item" onClick={() => onSelect(item)} data-testid="image-edit-history-item" title={item.prompt ?? ''}>
              <img src={item.image_url ?? ''} alt="" referrerPolicy="no-referrer" />
              {item.image_urls.length > 1 ? <span className="image-edit-history-count">{item.image_urls.length}</span> : null}
              <span className="image-edit-history-prompt">{item.prompt}</span>
            </button>
          </li>
        ))}
      </ul>
      {hasMore ? (
        <button type="button" className="btn btn-secondary image-edit-history-more" disabled={loadingMore} onClick={onLoadMore} data-testid="image-edit-history-more">
          {loadingMore ? t('imageEdit.history.loading') : t('imageEdit.history.more')}
        </button>
      ) : null}
    </section>
  );
}
