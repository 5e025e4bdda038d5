import { BATCH_LIMITS, type BatchListResponse, type BatchPhotoStatus, type BatchResponse } from '@dewy/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, apiUrl } from '../../../lib/api-client';
import { formatNumber, formatSeoulDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';

type BatchSummary = BatchListResponse['batches'][number];

/** Statuses in the order the card lists their counts. */
const ORDER = ['completed', 'processing', 'pending', 'failed', 'refused'] as const satisfies readonly BatchPhotoStatus[];

/** A status's words: those the credit history already has (`mypage.ledger.jobStatus`), then the batch's own. */
function statusKey(status: BatchPhotoStatus | 'paused'): string {
  return status === 'completed' || status === 'processing' || status === 'failed' ? `mypage.ledger.jobStatus.${status}` : `mypage.batches.status.${status}`;
}

/** GET /api/batches: the account's latest batches (BATCH_LIMITS.listMax), newest first. */
function useBatchList(enabled: boolean) {
  const { user, status } = useSession();
  return useQuery({
    queryKey: ['batches', user?.id ?? null],
    queryFn: async (): Promise<BatchSummary[]> => (await api.get('/api/batches')).batches,
    enabled: enabled && Boolean(user) && status === 'authenticated',
    staleTime: 0,
  });
}

/** GET /api/batches/{id}: one batch's photos, read when its row is opened (same cache as the batch page). */
function useBatchPhotos(id: string, open: boolean) {
  return useQuery({
    queryKey: ['batch', id],
    queryFn: ({ signal }): Promise<BatchResponse> => api.get('/api/batches/{id}', { path: { id }, signal }),
    enabled: open,
    staleTime: 0,
  });
}

function BatchRow({ batch }: { batch: BatchSummary }) {
  const { t } = useTranslation();
  const { locale, lp } = useLocale();
  const [open, setOpen] = useState(false);
  const photos = useBatchPhotos(batch.id, open);
  const panelId = `mypage-batch-${batch.id}`;
  return (
    <li className="mypage-batch" data-testid="mypage-batch" data-batch-id={batch.id}>
      <div className="mypage-batch-head">
        <div className="mypage-batch-info">
          {/* The date and summary open the batch's photo list (its words are the row's own). */}
          <button type="button" className="mypage-batch-toggle" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)} data-testid="mypage-batch-toggle">
            <span className="mypage-batch-caret" aria-hidden="true">
              {open ? '▾' : '▸'}
            </span>
            <time className="mypage-batch-date" dateTime={batch.createdAt}>
              {formatSeoulDateTime(batch.createdAt, locale)}
            </time>
            <span className="mypage-batch-summary" data-testid="mypage-batch-summary">
              {t('mypage.batches.summary', { n: batch.photoCount, credits: formatNumber(batch.charged, locale) })}
            </span>
          </button>
          <ul className="mypage-batch-counts">
            {ORDER.filter((s) => batch.counts[s] > 0).map((s) => (
              <li key={s} className={`mypage-batch-chip status-${s}`} data-testid={`mypage-batch-count-${s}`}>
                {t(statusKey(s))} {batch.counts[s]}
              </li>
            ))}
          </ul>
        </div>
        <div className="mypage-batch-actions">
          <Link className="btn btn-secondary btn-sm" to={`${lp('/upscale/batch')}?id=${encodeURIComponent(batch.id)}`} data-testid="mypage-batch-open">
            {t('mypage.batches.open')}
          </Link>
          {batch.counts.completed > 0 ? (
            <a className="btn btn-secondary btn-sm" href={apiUrl('get', '/api/batches/{id}/zip', { path: { id: batch.id } })} download data-testid="mypage-batch-zip">
              {t('toolJob.result.download')} (ZIP)
            </a>
          ) : null}
        </div>
      </div>
      {open ? (
        <div id={panelId} className="mypage-batch-photos">
          {photos.isPending ? (
            <p className="mypage-muted">{t('mypage.history.loadingMore')}</p>
          ) : photos.isError ? (
            <p className="mypage-muted">{t('toolJob.error.historyLoad')}</p>
          ) : (
            <ol className="mypage-batch-list" data-testid="mypage-batch-photos">
              {photos.data.batch.photos.map((p) => {
                const paused = p.status === 'failed' && p.error === 'JOB_CANCELLED';
                return (
                  <li key={p.position} data-testid="mypage-batch-photo" data-status={p.status}>
                    <span className="mypage-batch-name" title={p.name}>
                      {p.name}
                    </span>
                    <span className={`mypage-batch-chip status-${paused ? 'paused' : p.status}`}>{t(statusKey(paused ? 'paused' : p.status))}</span>
                  </li>
                );
              })}
            </ol>
          )}
        </div>
      ) : null}
    </li>
  );
}

/**
 * Batches (issue 24, decision 040 §4): the account's latest batches — date (Asia/Seoul), photo count,
 * counts per status, credits charged — each expandable to its photos (names and statuses), with its zip
 * and a link to follow it on the batch page (`/upscale/batch?id=`). Not shown to an unverified account
 * (the routes are for verified accounts). Its words are few and reuse the catalogue's where it has them:
 * the catalogue counts against the landing page's first-load budget (decision 025).
 */
export function BatchesCard() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const { user } = useSession();
  const verified = user?.email_verified !== false;
  const list = useBatchList(verified);
  // Batches need a verified e-mail (decision 032): the verify banner already says so.
  if (!verified) return null;
  return (
    <section className="card mypage-card mypage-batches" aria-labelledby="mypage-batches-title" data-testid="mypage-batches">
      <div className="mypage-batches-head">
        <h2 id="mypage-batches-title">{t('mypage.batches.title')}</h2>
        <Link className="btn btn-secondary btn-sm" to={lp('/upscale/batch')} data-testid="mypage-batches-new">
          {t('batch.batchLink', { max: BATCH_LIMITS.maxPhotos })}
        </Link>
      </div>
      {list.isPending ? (
        <p className="mypage-muted">{t('mypage.history.loadingMore')}</p>
      ) : list.isError ? (
        <p className="mypage-muted">{t('toolJob.error.historyLoad')}</p>
      ) : list.data.length === 0 ? (
        <p className="mypage-muted" data-testid="mypage-batches-empty">
          {t('mypage.batches.empty')}
        </p>
      ) : (
        <ul className="mypage-batch-rows" data-testid="mypage-batch-list">
          {list.data.map((b) => (
            <BatchRow key={b.id} batch={b} />
          ))}
        </ul>
      )}
    </section>
  );
}
