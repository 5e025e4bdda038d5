import { useTranslation } from 'react-i18next';
import type { JobProgress as Progress } from '../lib/job-events';
import { progressPercent, stageKey } from '../lib/progress';
import './tool-job.css';

export interface JobProgressProps {
  /** The stream's latest progress for the job; null while only polling (indeterminate bar). */
  progress: Progress | null;
  testId: string;
  /** 'dark' over a photo, 'light' on a card. */
  tone?: 'dark' | 'light';
}

/**
 * A job's progress bar: the engine stage in words and the fraction as a filled bar with its percent;
 * indeterminate (a moving stripe, no aria-valuenow) when no progress event has arrived.
 */
export function JobProgress({ progress, testId, tone = 'dark' }: JobProgressProps) {
  const { t } = useTranslation();
  const percent = progress ? progressPercent(progress) : null;
  const stage = progress ? t(`toolJob.progress.stage.${stageKey(progress.stage)}`) : t('toolJob.progress.waiting');
  const valueText = percent === null ? stage : `${stage} · ${percent}%`;
  return (
    <div className={`job-progress job-progress-${tone}`} data-testid={testId} data-mode={percent === null ? 'indeterminate' : 'determinate'} data-stage={progress ? stageKey(progress.stage) : ''}>
      <div className="job-progress-row">
        <span className="job-progress-stage" data-testid={`${testId}-stage`}>
          {stage}
        </span>
        {percent !== null ? (
          <span className="job-progress-percent" data-testid={`${testId}-percent`}>
            {percent}%
          </span>
        ) : null}
      </div>
      <div
        className={`job-progress-track ${percent === null ? 'is-indeterminate' : ''}`}
        role="progressbar"
        aria-label={t('toolJob.progress.label')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={valueText}
        aria-busy={percent === null || percent < 100}
      >
        <div className="job-progress-fill" style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
    </div>
  );
}
