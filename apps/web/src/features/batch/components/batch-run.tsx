import type { BatchPhotoView, BatchResponse } from '@dewy/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useBatchTranslation } from '../lib/i18n';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { formatNumber, formatSeoulDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { FullscreenCompare, endedSession, sharedFailureKey } from '../../../shared/tool-job';
import { batchKey, batchZipUrl, pauseBatch, resumeBatch, retryBatchPhoto, useBatch } from '../api/batches';
import { useBatchFollow } from '../hooks/use-batch-follow';
import { RunPhotoCard } from './photo-cards';

/** The toolbar's counts, in this order; `paused` is a failed photo whose job was cancelled by Pause. */
const COUNTED = ['completed', 'processing', 'pending', 'paused', 'failed', 'refused'] as const;

/**
 * A started batch (`?id=`): counts per status and credits charged, Pause (queued photos cancelled and
 * refunded) and Resume, "Download all (zip)" as a plain link once a photo is done, and each photo's card
 * kept live by the job event stream (useBatchFollow). Every action answers the batch, shown at once, and
 * re-syncs the header's balance.
 */
export function BatchRun({ id }: { id: string }) {
  const { t } = useBatchTranslation();
  const { locale, lp } = useLocale();
  const { forceSync } = useSession();
  const queryClient = useQueryClient();
  const query = useBatch(id);
  const batch = query.data?.batch;
  const { refetch } = query;
  const { client } = useBatchFollow(batch, query.dataUpdatedAt, () => void refetch());
  const [acting, setActing] = useState<'pause' | 'resume' | `retry:${number}` | null>(null);
  const [comparing, setComparing] = useState<BatchPhotoView | null>(null);

  const act = async (what: NonNullable<typeof acting>, call: () => Promise<BatchResponse>) => {
    setActing(what);
    try {
      const res = await call();
      queryClient.setQueryData(batchKey(id), res);
      void forceSync();
    } catch (err) {
      console.warn('[batch] action failed', err);
      if (!endedSession(err)) {
        const shared = sharedFailureKey(err);
        notify.error(shared ? t(shared) : err instanceof ApiError && !err.isNetwork ? err.message : t('batch.error.action'));
      }
    } finally {
      setActing(null);
    }
  };

  if (query.isPending) {
    return (
      <div className="batch-loading" data-testid="batch-loading">
        <span className="spinner" aria-hidden="true" /> {t('batch.run.loading')}
      </div>
    );
  }
  if (!batch) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="card batch-missing" role="alert" data-testid="batch-missing">
        <p>{notFound ? t('batch.run.notFound') : t('batch.run.loadFailed')}</p>
        <Link className="btn btn-secondary btn-sm" to={lp('/upscale/batch')}>
          {t('batch.run.new')}
        </Link>
      </div>
    );
  }

  const paused = batch.photos.filter((p) => p.status === 'failed' && p.error === 'JOB_CANCELLED').length;
  const counts = { ...batch.counts, failed: batch.counts.failed - paused, paused };
  const canPause = counts.processing > 0;
  const canResume = batch.photos.some((p) => (p.status === 'failed' && p.error === 'JOB_CANCELLED') || (p.status === 'refused' && p.error === 'INSUFFICIENT_CREDITS'));
  const creditRefused = batch.photos.some((p) => p.status === 'refused' && p.error === 'INSUFFICIENT_CREDITS');
  const done = counts.completed;

  return (
    <div className="batch-run" data-testid="batch-run" data-batch-id={batch.id}>
      <section className="card batch-toolbar" aria-label={t('batch.run.title')}>
        <div className="batch-toolbar-info">
          <h2 className="batch-section-title">
            {t('batch.run.title')} · <time dateTime={batch.createdAt}>{formatSeoulDateTime(batch.createdAt, locale)}</time>
          </h2>
          <ul className="batch-counts" data-testid="batch-counts">
            {COUNTED.filter((s) => counts[s] > 0 || s === 'completed').map((s) => (
              <li key={s} className={`batch-status-chip status-${s}`} data-testid={`batch-count-${s}`} data-count={counts[s]}>
                {t(`batch.status.${s}`)} {counts[s]}
              </li>
            ))}
          </ul>
          <p className="batch-charged" data-testid="batch-charged" data-charged={batch.charged}>
            {t('batch.run.charged', { credits: formatNumber(batch.charged, locale), n: batch.photos.length })}
          </p>
        </div>
        <div className="batch-toolbar-actions">
          {canPause ? (
            <button type="button" className="btn btn-secondary btn-sm" disabled={acting !== null} aria-busy={acting === 'pause'} onClick={() => void act('pause', () => pauseBatch(id))} data-testid="batch-pause">
              {t('batch.run.pause')}
            </button>
          ) : null}
          {canResume ? (
            <button type="button" className="btn btn-secondary btn-sm" disabled={acting !== null} aria-busy={acting === 'resume'} onClick={() => void act('resume', () => resumeBatch(id))} data-testid="batch-resume">
              {t('batch.run.resume')}
            </button>
          ) : null}
          {done > 0 ? (
            <a className="btn btn-primary btn-sm" href={batchZipUrl(id)} download data-testid="batch-zip" data-enabled="true">
              {t('batch.run.zip', { n: done })}
            </a>
          ) : (
            <span className="btn btn-primary btn-sm" aria-disabled="true" title={t('batch.run.zipWaiting')} data-testid="batch-zip" data-enabled="false">
              {t('batch.run.zip', { n: 0 })}
            </span>
          )}
          <Link className="btn btn-ghost btn-sm" to={lp('/upscale/batch')} data-testid="batch-new">
            {t('batch.run.new')}
          </Link>
        </div>
        {canPause ? <p className="batch-note">{t('batch.run.pauseNote')}</p> : null}
        {creditRefused ? (
          <p className="batch-note is-warn" data-testid="batch-credit-note">
            {t('batch.run.creditRefused')} <Link to={lp('/pricing?tab=credits')}>{t('batch.summary.buy')}</Link>
          </p>
        ) : null}
      </section>

      <ul className="batch-grid" data-testid="batch-grid">
        {batch.photos.map((photo) => (
          <RunPhotoCard
            key={photo.position}
            photo={photo}
            client={client}
            retrying={acting === `retry:${photo.position}`}
            onRetry={() => void act(`retry:${photo.position}`, () => retryBatchPhoto(id, photo.position))}
            onCompare={() => setComparing(photo)}
          />
        ))}
      </ul>

      {comparing?.resultUrl ? (
        <FullscreenCompare
          testIdPrefix="batch"
          open
          onOpenChange={(o) => {
            if (!o) setComparing(null);
          }}
          before={comparing.originalUrl ?? comparing.resultUrl}
          after={comparing.resultUrl}
          afterAlt={t('upscale.result.afterAlt')}
          title={comparing.name}
        />
      ) : null}
    </div>
  );
}
