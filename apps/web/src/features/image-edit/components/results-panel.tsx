import { useTranslation } from 'react-i18next';

export interface ResultsPanelProps {
  /** Loading boxes shown while a run is in progress (one per ordered image). */
  loadingCount: number;
  urls: readonly string[];
  partial: boolean;
  onOpen: (url: string) => void;
  onDownload: (url: string) => void;
}

/** The results area (002 §2): loading boxes, a single result, or a grid of up to 8. */
export function ResultsPanel({ loadingCount, urls, partial, onOpen, onDownload }: ResultsPanelProps) {
  const { t } = useTranslation();
  if (loadingCount > 0) {
    return (
      <div className={`image-edit-results n-${Math.min(loadingCount, 4)}`} aria-busy="true" data-testid="image-edit-loading">
        {Array.from({ length: loadingCount }, (_, i) => (
          <div key={i} className="image-edit-loading-box">
            <span className="image-edit-spinner" aria-hidden="true" />
            <span>{t('imageEdit.results.generating')}</span>
          </div>
        ))}
      </div>
    );
  }
  if (urls.length === 0) {
    return (
      <div className="image-edit-results-empty" data-testid="image-edit-results-empty">
        <p>{t('imageEdit.results.empty')}</p>
      </div>
    );
  }
  return (
    <div>
      {partial ? <p className="image-edit-partial" data-testid="image-edit-partial">{t('imageEdit.results.partial')}</p> : null}
      <div className={`image-edit-results ${urls.length === 1 ? 'is-single' : `n-${Math.min(urls.length, 4)}`}`} data-testid="image-edit-results">
        {urls.map((u, i) => (
          <figure key={u} className="image-edit-result" data-testid={`image-edit-result-${i}`}>
            <button type="button" className="image-edit-result-open" onClick={() => onOpen(u)} aria-label={t('imageEdit.results.open', { n: i + 1 })}>
              <img src={u} alt={t('imageEdit.results.alt', { n: i + 1 })} referrerPolicy="no-referrer" />
            </button>
            <button type="button" className="btn btn-secondary btn-sm image-edit-result-dl" onClick={() => onDownload(u)} data-testid={`image-edit-download-${i}`}>
              {t('imageEdit.results.download')}
            </button>
          </figure>
        ))}
      </div>
    </div>
  );
}
