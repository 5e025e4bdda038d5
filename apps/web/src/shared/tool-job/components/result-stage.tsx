import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ComparisonSlider } from '../../../components/ui/comparison-slider';
import { Icon } from '../../../components/ui/icons';
import type { JobEventsConnection, JobProgress as Progress } from '../lib/job-events';
import { messageText } from '../lib/tool-messages';
import type { ToolJobState } from '../lib/workspace';
import { DownloadButton } from './download-button';
import { JobProgress } from './job-progress';
import './tool-job.css';

/** What a tool says in its own words on the stage. */
export interface ResultStageCopy {
  /** Alt text of the result image, e.g. "Retouched photo". */
  afterAlt: string;
  processingTitle: string;
  processingWait: string;
}

export interface ResultStageProps {
  /**
   * Test ids: `<prefix>-stage` (attributes below), `-processing`, `-progress`, `-result-slider`,
   * `-failed`, `-retry`, `-download`, `-fullscreen`.
   */
  testIdPrefix: string;
  job: ToolJobState;
  /** The stream's progress of the running job (null: indeterminate bar). */
  progress: Progress | null;
  /** The job event stream's state, exposed as `data-push` for tests and support. */
  connection: JobEventsConnection;
  /** The uploaded (or uploading) photo's preview, if any. */
  preview: string | null;
  /** Shown with no photo and no job (a tool's sample). */
  idle: ReactNode;
  /**
   * Drawn over the photo preview (not while processing), e.g. the saved mask: an image of the photo's
   * aspect ratio stacks exactly on it (same grid cell, same size rules).
   */
  previewOverlay?: ReactNode;
  /** A label of the completed result, shown at the bottom left of the comparison (001 §9: the dewy-skin result's filter). */
  resultLabel?: string | null;
  copy: ResultStageCopy;
  downloading: boolean;
  onRetry: () => void;
  onFullscreen: () => void;
  onDownload: () => void;
}

function Placeholder() {
  return (
    <div className="stage-placeholder">
      <div className="spinner" />
    </div>
  );
}

/**
 * A tool's stage (001 §2/§4): idle (the tool's sample) → preview → processing with a progress bar →
 * comparison slider or failure. The root carries `data-state` (sample | preview | processing |
 * completed | failed), `data-job-status` (idle | processing | completed | failed), `data-job-id`,
 * `data-settled-via` (push | poll | history, once completed or failed) and `data-push` (the stream).
 */
export function ResultStage({ testIdPrefix, job, progress, connection, preview, idle, previewOverlay, resultLabel, copy, downloading, onRetry, onFullscreen, onDownload }: ResultStageProps) {
  const { t } = useTranslation();
  const p = testIdPrefix;
  const common = {
    'data-testid': `${p}-stage`,
    'data-job-status': job.status,
    'data-job-id': job.status === 'idle' ? undefined : (job.jobId ?? undefined),
    'data-settled-via': job.status === 'completed' ? job.via : undefined,
    'data-push': connection,
  };

  if (job.status === 'completed') {
    return (
      <div className="stage" data-state="completed" {...common}>
        <ComparisonSlider
          leftImage={{ src: job.originalUrl ?? job.resultUrl, alt: t('toolJob.result.beforeAlt'), label: t('common.before') }}
          rightImage={{ src: job.resultUrl, alt: copy.afterAlt, label: t('common.after') }}
          placeholder={<Placeholder />}
          testId={`${p}-result-slider`}
        />
        {resultLabel ? (
          <span className="stage-result-label" data-testid={`${p}-result-label`}>
            {resultLabel}
          </span>
        ) : null}
        <div className="stage-actions">
          <button type="button" className="btn btn-secondary btn-sm" onClick={onFullscreen} data-testid={`${p}-fullscreen`}>
            {t('toolJob.result.fullscreen')}
          </button>
          <DownloadButton downloading={downloading} onDownload={onDownload} testId={`${p}-download`} />
        </div>
      </div>
    );
  }

  if (job.status === 'failed') {
    return (
      <div className="stage stage-message" data-state="failed" {...common}>
        <div className="stage-failed" role="alert" data-testid={`${p}-failed`}>
          <span className="emoji emoji-icon emoji-warn">
            <Icon name="warning" size={36} />
          </span>
          <p>{messageText(t, job.message)}</p>
          <button type="button" className="btn btn-primary" onClick={onRetry} data-testid={`${p}-retry`}>
            {t('toolJob.result.tryAgain')}
          </button>
        </div>
      </div>
    );
  }

  if (job.status === 'processing' || preview) {
    const src = preview ?? (job.status === 'processing' ? job.originalUrl : null);
    return (
      <div className="stage" data-state={job.status === 'processing' ? 'processing' : 'preview'} {...common}>
        <div className="stage-preview">
          {src ? <img src={src} alt={t('toolJob.upload.previewAlt')} /> : <div className="stage-preview-empty" />}
          {src && job.status !== 'processing' ? previewOverlay : null}
          {job.status === 'processing' ? (
            <div className="stage-processing" data-testid={`${p}-processing`}>
              {/* Only the title is a live region: the bar's every step is not read aloud. */}
              <strong role="status">{copy.processingTitle}</strong>
              <JobProgress progress={progress} testId={`${p}-progress`} />
              <span>{copy.processingWait}</span>
            </div>
          ) : null}
        </div>
      </div>
    );
  }

  return (
    <div className="stage" data-state="sample" {...common}>
      {idle}
    </div>
  );
}
