import { BATCH_LIMITS, type BatchPhotoView } from '@dewy/contracts';
import { useBatchTranslation } from '../lib/i18n';
import { ComparisonSlider } from '../../../components/ui/comparison-slider';
import { useLocale } from '../../../lib/use-locale';
import { JobProgress, useJobSnapshot, type JobEventsClient } from '../../../shared/tool-job';
import { canRetry, photoReason, wasRefunded } from '../lib/photo-error';
import type { PhotoPlan } from '../lib/photo-plan';
import { SizeBadgeChip } from '../../../shared/retouch-options';

/** Where a picked photo's upload stands once "Start batch" was clicked. */
export type UploadState = { state: 'idle' } | { state: 'waiting' } | { state: 'uploading' } | { state: 'uploaded'; imageUrl: string } | { state: 'failed'; key: string };

export interface LocalPhotoCardProps {
  position: number;
  name: string;
  /** Local thumbnail (object URL), null until read, or for a file left out before reading or unreadable. */
  previewUrl: string | null;
  plan: PhotoPlan;
  upload: UploadState;
  scale: number;
  /** Removing is refused while the batch uploads. */
  busy: boolean;
  onRemove: () => void;
}

/** The card's state as a test and a stylesheet read it (`data-status`). */
function localStatus(plan: PhotoPlan, upload: UploadState): string {
  if (upload.state === 'waiting') return 'waiting';
  if (upload.state === 'uploading') return 'uploading';
  if (upload.state === 'uploaded') return 'uploaded';
  if (upload.state === 'failed') return 'upload-failed';
  if (plan.issue) return 'excluded';
  if (plan.cost === null) return 'reading';
  return 'ready';
}

/**
 * A picked photo before the batch starts: thumbnail, original file name, output size with the size
 * badge, its cost at the chosen scale — or why it is left out (type, file size, unreadable, the ≥ 4000 px
 * rule, past 50) — then its upload's progress once the batch starts.
 */
export function LocalPhotoCard({ position, name, previewUrl, plan, upload, scale, busy, onRemove }: LocalPhotoCardProps) {
  const { t } = useBatchTranslation();
  const status = localStatus(plan, upload);
  const issueText = (() => {
    switch (plan.issue) {
      case 'type':
        return t('upscale.error.fileType');
      case 'tooLarge':
        return t('toolJob.error.tooLarge');
      case 'unreadable':
        return t('toolJob.error.corrupt');
      case 'blocked':
        return plan.output ? t('batch.photo.blocked', { scale: scale.toFixed(1), width: plan.output.width, height: plan.output.height, sum: plan.output.width + plan.output.height }) : '';
      case 'overLimit':
        return t('batch.photo.overLimit', { max: BATCH_LIMITS.maxPhotos });
      default:
        return null;
    }
  })();
  return (
    <li className={`batch-card is-${status}`} data-testid="batch-card" data-status={status} data-position={position} data-issue={plan.issue ?? undefined}>
      <div className="batch-card-media">
        {previewUrl ? <img src={previewUrl} alt="" /> : <span className="batch-card-noimg" aria-hidden="true" />}
        {upload.state === 'uploading' ? (
          <div className="batch-card-overlay">
            <span className="spinner spinner-sm spinner-light" aria-hidden="true" />
          </div>
        ) : null}
      </div>
      <div className="batch-card-body">
        <strong className="batch-card-name" title={name} data-testid="batch-card-name">
          {name}
        </strong>
        {plan.output && plan.badge && !plan.issue ? (
          <div className="batch-card-meta">
            <SizeBadgeChip badge={plan.badge} sum={plan.output.width + plan.output.height} testId="batch-card-badge" />
            <span className="batch-card-dims">
              {plan.output.width}×{plan.output.height}
            </span>
          </div>
        ) : null}
        {plan.issue ? (
          <p className="batch-card-reason is-warn" data-testid="batch-card-reason">
            <span className="batch-card-label">{t('batch.photo.excluded')}</span> {issueText}
          </p>
        ) : plan.cost === null ? (
          <p className="batch-card-state">{t('batch.photo.reading')}</p>
        ) : (
          <p className="batch-card-cost" data-testid="batch-card-cost" data-cost={plan.cost}>
            {t('batch.photo.cost', { cost: plan.cost })}
            {plan.resized && plan.upload ? <span className="batch-card-note">{t('batch.photo.resized', { width: plan.upload.width, height: plan.upload.height })}</span> : null}
            {!plan.covered ? <span className="batch-card-note is-warn">{t('batch.photo.beyondBalance')}</span> : null}
          </p>
        )}
        {upload.state !== 'idle' ? (
          <p className={`batch-card-state ${upload.state === 'failed' ? 'is-warn' : ''}`} role={upload.state === 'failed' ? 'alert' : undefined} data-testid="batch-card-upload">
            {upload.state === 'failed' ? t(upload.key) : t(`batch.upload.${upload.state}`)}
          </p>
        ) : (
          <button type="button" className="btn btn-ghost btn-sm batch-card-remove" onClick={onRemove} disabled={busy} data-testid="batch-card-remove">
            {t('batch.photo.remove')}
          </button>
        )}
      </div>
    </li>
  );
}

export interface RunPhotoCardProps {
  photo: BatchPhotoView;
  client: JobEventsClient;
  retrying: boolean;
  onRetry: () => void;
  onCompare: () => void;
}

/**
 * A photo of a started batch: its original, live progress while processing (the job event stream), a
 * before/after comparison once completed, or the reason it failed or was refused with a Retry button.
 * `data-status` is the server's status (pending, processing, completed, failed, refused).
 */
export function RunPhotoCard({ photo, client, retrying, onRetry, onCompare }: RunPhotoCardProps) {
  const { t } = useBatchTranslation();
  const { locale } = useLocale();
  const snapshot = useJobSnapshot(client, photo.status === 'processing' ? photo.jobId : null);
  const reason = photoReason(photo.status, photo.error, locale);
  const paused = photo.status === 'failed' && photo.error === 'JOB_CANCELLED';
  const label = paused ? t('batch.status.paused') : t(`batch.status.${photo.status}`);
  return (
    <li className={`batch-card is-${photo.status}`} data-testid="batch-card" data-status={photo.status} data-position={photo.position} data-job-id={photo.jobId ?? undefined}>
      <div className="batch-card-media">
        {photo.status === 'completed' && photo.resultUrl ? (
          <ComparisonSlider
            leftImage={{ src: photo.originalUrl ?? photo.resultUrl, alt: t('toolJob.result.beforeAlt'), label: t('common.before') }}
            rightImage={{ src: photo.resultUrl, alt: t('upscale.result.afterAlt'), label: t('common.after') }}
            aspect="shorter"
            handleSize={28}
            placeholder={<span className="batch-card-noimg" />}
            testId="batch-card-compare"
          />
        ) : photo.originalUrl ? (
          <img src={photo.originalUrl} alt="" loading="lazy" decoding="async" />
        ) : (
          <span className="batch-card-noimg" aria-hidden="true" />
        )}
      </div>
      <div className="batch-card-body">
        <strong className="batch-card-name" title={photo.name} data-testid="batch-card-name">
          {photo.name}
        </strong>
        <div className="batch-card-meta">
          <span className={`batch-status-chip status-${paused ? 'paused' : photo.status}`} data-testid="batch-card-status">
            {label}
          </span>
          {photo.cost > 0 && (photo.status === 'processing' || photo.status === 'completed') ? <span className="batch-card-dims">{t('batch.photo.cost', { cost: photo.cost })}</span> : null}
        </div>
        {photo.status === 'processing' ? <JobProgress progress={snapshot?.progress ?? null} testId="batch-card-progress" tone="light" /> : null}
        {reason ? (
          <p className="batch-card-reason is-warn" data-testid="batch-card-reason">
            {'key' in reason ? t(reason.key) : reason.text}
            {wasRefunded(photo.status, photo.error) ? <span className="batch-card-note">{t('batch.photo.refunded')}</span> : null}
          </p>
        ) : null}
        <div className="batch-card-actions">
          {photo.status === 'completed' && photo.resultUrl ? (
            <button type="button" className="btn btn-secondary btn-sm" onClick={onCompare} data-testid="batch-card-fullscreen">
              {t('batch.photo.compare')}
            </button>
          ) : null}
          {canRetry(photo.status, photo.error) ? (
            <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry} disabled={retrying} aria-busy={retrying} data-testid="batch-card-retry">
              {t('batch.photo.retry')}
            </button>
          ) : null}
        </div>
      </div>
    </li>
  );
}
