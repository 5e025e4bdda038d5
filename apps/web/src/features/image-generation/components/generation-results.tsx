import { IMAGE_GENERATION } from '@dewy/contracts';
import { useTranslation } from 'react-i18next';
import { formatSeoulDateTime } from '../../../lib/format';
import { useLocale } from '../../../lib/use-locale';
import type { GenerationItem } from '../lib/generation';

export interface ResultActions {
  onZoom(url: string): void;
  onDownload(url: string): void;
  onCopyLink(url: string): void;
  onSendToUpscale(url: string): void;
}

/**
 * The 4-cell results grid (002 §2): loading cells while generating, each result with zoom, download,
 * share link and send-to-upscale; empty cells otherwise.
 */
export function ResultsGrid({ urls, loadingCount, sending, partial, actions }: { urls: string[]; loadingCount: number; sending: string | null; partial: boolean; actions: ResultActions }) {
  const { t } = useTranslation();
  const cells = Array.from({ length: IMAGE_GENERATION.count.max }, (_, i) => i);
  return (
    <section className="gen-results card" aria-label={t('imageGeneration.result.title')} data-testid="gen-results">
      <div className="gen-results-head">
        <h2>{t('imageGeneration.result.title')}</h2>
        {partial ? (
          <p className="gen-partial" role="status" data-testid="gen-partial">
            {t('imageGeneration.result.partial')}
          </p>
        ) : null}
      </div>
      <ul className="gen-grid">
        {cells.map((i) => {
          const url = urls[i];
          if (url) {
            return (
              <li key={i} className="gen-cell has-image" data-testid="gen-result">
                <button type="button" className="gen-cell-img" onClick={() => actions.onZoom(url)} aria-label={t('imageGeneration.result.zoom')}>
                  <img src={url} alt={t('imageGeneration.result.alt')} data-testid="gen-result-img" />
                </button>
                <div className="gen-cell-actions">
                  <button type="button" className="gen-icon-btn" onClick={() => actions.onZoom(url)} title={t('imageGeneration.result.zoom')} aria-label={t('imageGeneration.result.zoom')} data-testid="gen-zoom-btn">
                    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zm10 17-5-5M11 8v6M8 11h6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
                  </button>
                  <button type="button" className="gen-icon-btn" onClick={() => actions.onDownload(url)} title={t('imageGeneration.result.download')} aria-label={t('imageGeneration.result.download')} data-testid="gen-download">
                    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M12 4v11m0 0-4-4m4 4 4-4M5 19h14" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
                  </button>
                  <button type="button" className="gen-icon-btn" onClick={() => actions.onCopyLink(url)} title={t('imageGeneration.result.copyLink')} aria-label={t('imageGeneration.result.copyLink')} data-testid="gen-copy-link">
                    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
                  </button>
                  <button type="button" className="btn btn-primary btn-sm gen-upscale-btn" onClick={() => actions.onSendToUpscale(url)} disabled={sending !== null} data-testid="gen-send-upscale">
                    {sending === url ? t('imageGeneration.result.sending') : t('imageGeneration.result.sendToUpscale')}
                  </button>
                </div>
              </li>
            );
          }
          return (
            <li key={i} className={`gen-cell${i < loadingCount ? ' is-loading' : ''}`} aria-busy={i < loadingCount} data-testid={i < loadingCount ? 'gen-loading-cell' : 'gen-empty-cell'}>
              {i < loadingCount ? <div className="spinner" /> : <span className="gen-cell-empty">{i + 1}</span>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The history panel (002 §2): prompt search, the generations, Load more. */
export function GenerationHistory({
  items,
  loading,
  hasMore,
  loadingMore,
  selectedId,
  search,
  onSearchChange,
  onSearch,
  onSelect,
  onLoadMore,
}: {
  items: GenerationItem[];
  loading: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  selectedId: string | null;
  search: string;
  onSearchChange(v: string): void;
  onSearch(): void;
  onSelect(item: GenerationItem): void;
  onLoadMore(): void;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  return (
    <section className="gen-history card" aria-labelledby="gen-history-title" data-testid="gen-history">
      <div className="gen-history-head">
        <h2 id="gen-history-title">{t('imageGeneration.history.title')}</h2>
        <form
          className="gen-search"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            onSearch();
          }}
        >
          <input className="input" type="search" value={search} onChange={(e) => onSearchChange(e.target.value)} placeholder={t('imageGeneration.history.search')} aria-label={t('imageGeneration.history.search')} data-testid="gen-history-search" />
          <button type="submit" className="btn btn-secondary btn-sm">
            {t('imageGeneration.history.searchButton')}
          </button>
        </form>
      </div>
      {loading ? (
        <div className="gen-history-state" aria-busy="true">
          <div className="spinner" />
        </div>
      ) : items.length === 0 ? (
        <p className="gen-history-state" data-testid="gen-history-empty">
          {search ? t('imageGeneration.history.noMatch') : t('imageGeneration.history.empty')}
        </p>
      ) : (
        <ul className="gen-history-list">
          {items.map((item) => (
            <li key={item.id}>
              <button type="button" className={`gen-history-item${selectedId === item.id ? ' is-selected' : ''}`} onClick={() => onSelect(item)} data-testid="gen-history-item">
                <span className="gen-history-thumbs">
                  {item.urls.slice(0, 4).map((u) => (
                    <img key={u} src={u} alt="" loading="lazy" />
                  ))}
                </span>
                <span className="gen-history-text">
                  <span className="gen-history-prompt">{item.prompt || t('imageGeneration.history.noPrompt')}</span>
                  <time dateTime={item.createdAt}>{formatSeoulDateTime(item.createdAt, locale)}</time>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {hasMore ? (
        <div className="gen-more">
          <button type="button" className="btn btn-secondary" onClick={onLoadMore} disabled={loadingMore} data-testid="gen-history-more">
            {loadingMore ? t('imageGeneration.history.loadingMore') : t('imageGeneration.history.loadMore')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
