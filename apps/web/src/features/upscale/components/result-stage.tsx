import { useTranslation } from 'react-i18next';
import { ComparisonSlider } from '../../../components/ui/comparison-slider';
import sampleAfter from '../../../assets/samples/korean-makeup-after.svg';
import sampleBefore from '../../../assets/samples/korean-makeup-before.svg';
import type { UpscaleJobState } from '../hooks/use-upscale-job';
import { Icon } from '../../../components/ui/icons';

export interface ResultStageProps {
  job: UpscaleJobState;
  /** The uploaded (or uploading) photo's preview, if any. */
  preview: string | null;
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

/** The stage: sample → preview → processing → comparison slider or failure (001 §2/§4). */
export function ResultStage({ job, preview, downloading, onRetry, onFullscreen, onDownload }: ResultStageProps) {
  const { t } = useTranslation();

  if (job.status === 'completed') {
    return (
      <div className="stage" data-testid="upscale-stage" data-state="completed">
        <ComparisonSlider
          leftImage={{ src: job.originalUrl ?? job.resultUrl, alt: t('upscale.result.beforeAlt'), label: t('common.before') }}
          rightImage={{ src: job.resultUrl, alt: t('upscale.result.afterAlt'), label: t('common.after') }}
          placeholder={<Placeholder />}
          testId="upscale-result-slider"
        />
        <div className="stage-actions">
          <button type="button" className="btn btn-secondary btn-sm" onClick={onFullscreen} data-testid="upscale-fullscreen">
            {t('upscale.result.fullscreen')}
          </button>
          <button type="button" className="btn btn-primary btn-sm" onClick={onDownload} disabled={downloading} data-testid="upscale-download">
            {downloading ? t('upscale.result.downloading') : t('upscale.result.download')}
          </button>
        </div>
      </div>
    );
  }

  if (job.status === 'failed') {
    return (
      <div className="stage stage-message" data-testid="upscale-stage" data-state="failed">
        <div className="stage-failed" role="alert" data-testid="upscale-failed">
          <span className="emoji emoji-icon emoji-warn">
            <Icon name="warning" size={36} />
          </span>
          <p>{t(job.messageKey)}</p>
          <button type="button" className="btn btn-primary" onClick={onRetry} data-testid="upscale-retry">
            {t('upscale.result.tryAgain')}
          </button>
        </div>
      </div>
    );
  }

  if (job.status === 'processing' || preview) {
    const src = preview ?? (job.status === 'processing' ? job.originalUrl : null);
    return (
      <div className="stage" data-testid="upscale-stage" data-state={job.status === 'processing' ? 'processing' : 'preview'}>
        <div className="stage-preview">
          {src ? <img src={src} alt={t('upscale.upload.previewAlt')} /> : <div className="stage-preview-empty" />}
          {job.status === 'processing' ? (
            <div className="stage-processing" role="status" data-testid="upscale-processing">
              <div className="spinner spinner-light" />
              <strong>{t('upscale.result.processingTitle')}</strong>
              <span>{t('upscale.result.processingWait')}</span>
            </div>
          ) : null}
        </div>
      </div>
    );
  }

  return (
    <div className="stage" data-testid="upscale-stage" data-state="sample">
      <div className="stage-badges">
        <span className="ui-badge">{t('upscale.sample.sample')}</span>
        <span className="ui-badge ui-badge-muted">{t('upscale.sample.preview')}</span>
      </div>
      <ComparisonSlider
        leftImage={{ src: sampleBefore, alt: t('upscale.sample.beforeAlt'), label: t('common.before') }}
        rightImage={{ src: sampleAfter, alt: t('upscale.sample.afterAlt'), label: t('common.after') }}
        placeholder={<Placeholder />}
        testId="upscale-sample-slider"
      />
      <p className="stage-caption">{t('upscale.sample.caption')}</p>
    </div>
  );
}
