import { DEFAULT_CREDITS_DISPLAY, LARGE_IMAGE_NOTICE_SUM, isUpscaleBlocked, scaledSum, sizeBadge, upscaleCost, type HistoryImage } from '@dewy/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { postUpscale } from '../api/create-upscale';
import { downloadImage } from '../api/download';
import { upscaleHistoryKey, useUpscaleHistory } from '../api/history';
import { useImageUpload, type UploadedImage } from '../hooks/use-image-upload';
import { useUpscaleJob } from '../hooks/use-upscale-job';
import { upscaleFailure } from '../lib/errors';
import { takeUpscaleHandoff } from '../lib/handoff';
import { DEFAULT_OPTIONS, buildUpscaleInput, randomSeed, updateOptions, type UpscaleOptions } from '../lib/options';
import { GenerateBar } from './generate-bar';
import { HistoryList } from './history-list';
import { OptionsPanel } from './options-panel';
import { ResultStage } from './result-stage';
import { BlockedDialog, FullscreenCompare, GuideDialog, LargeImageDialog } from './upscale-dialogs';
import { UploadArea } from './upload-area';
import './upscale.css';

const HISTORY_CLICK_DEBOUNCE_MS = 300;

/** The retouch/upscale workspace (/upscale, /en/upscale), spec 001 §2–§5. */
export function UpscalePage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user, forceSync } = useSession();
  const userId = user?.id;

  const [options, setOptions] = useState<UpscaleOptions>(DEFAULT_OPTIONS);
  const [submitting, setSubmitting] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<'blocked' | 'guide' | 'large' | 'fullscreen' | null>(null);

  const refreshAfterJob = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: upscaleHistoryKey(userId) });
    void forceSync();
  }, [queryClient, userId, forceSync]);

  const job = useUpscaleJob(refreshAfterJob);
  const { reset: resetJob } = job;
  const onUploaded = useCallback(
    (img: UploadedImage) => {
      resetJob();
      setSelectedId(null);
      if (img.width + img.height >= LARGE_IMAGE_NOTICE_SUM) setDialog('large');
    },
    [resetJob],
  );
  const upload = useImageUpload(onUploaded);
  const image = upload.image;
  const { adopt } = upload;
  useEffect(() => {
    const handoff = takeUpscaleHandoff();
    if (handoff) void adopt(handoff);
  }, [adopt]);
  const processing = job.state.status === 'processing';

  // History: load failure toast; resume polling of a processing item once (001 §4).
  const history = useUpscaleHistory(userId);
  const items = history.data?.images ?? [];
  useEffect(() => {
    if (history.isError) notify.error(t('upscale.error.historyLoad'));
  }, [history.isError, t]);
  const resumed = useRef(false);
  const { track } = job;
  useEffect(() => {
    if (resumed.current || !history.data) return;
    resumed.current = true;
    const pending = history.data.images.find((i) => i.status === 'processing' && i.runpod_job_id);
    if (pending?.runpod_job_id) {
      track(pending.runpod_job_id, pending.original_image_url);
      setSelectedId(pending.id);
    }
  }, [history.data, track]);

  // History clicks are debounced 300 ms (001 §9).
  const clickTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(clickTimer.current), []);
  const { show, fail } = job;
  const selectHistory = useCallback(
    (item: HistoryImage) => {
      window.clearTimeout(clickTimer.current);
      clickTimer.current = window.setTimeout(() => {
        if (processing) {
          notify.info(t('upscale.history.busy'));
          return;
        }
        setSelectedId(item.id);
        if (item.status === 'completed' && item.image_url) show(item.image_url, item.original_image_url, item.runpod_job_id);
        else if (item.status === 'processing' && item.runpod_job_id) track(item.runpod_job_id, item.original_image_url);
        else fail('upscale.error.jobFailed');
      }, HISTORY_CLICK_DEBOUNCE_MS);
    },
    [processing, show, track, fail, t],
  );

  const balance = user?.credits ?? DEFAULT_CREDITS_DISPLAY;
  const cost = image ? upscaleCost(image.width, image.height, options.scale) : null;
  const insufficient = cost !== null && balance < cost;
  const outputSize = image ? { width: Math.round(image.width * options.scale), height: Math.round(image.height * options.scale) } : null;
  const badge = image ? sizeBadge(scaledSum(image.width, image.height, options.scale)) : null;
  const disabled = upload.uploading || submitting || processing || options.scale <= 0 || insufficient;

  const generate = async () => {
    if (!image) {
      notify.error(t('upscale.error.noImage'));
      return;
    }
    if (!user) {
      notify.error(t('upscale.error.loginRequired'));
      void navigate(lp('/login'));
      return;
    }
    if (isUpscaleBlocked(image.width, image.height, options.scale)) {
      setDialog('blocked');
      return;
    }
    setSubmitting(true);
    try {
      const res = await postUpscale(buildUpscaleInput(options, image, randomSeed()));
      track(res.jobId, image.previewUrl);
      setSelectedId(res.imageId);
      refreshAfterJob();
    } catch (err) {
      const failure = upscaleFailure(err);
      if (failure.kind === 'blocked') setDialog('blocked');
      else notify.error(t(failure.key));
    } finally {
      setSubmitting(false);
    }
  };

  const download = async () => {
    if (job.state.status !== 'completed') return;
    setDownloading(true);
    try {
      if (!(await downloadImage(job.state.resultUrl))) notify.error(t('upscale.error.download'));
    } finally {
      setDownloading(false);
    }
  };

  const completed = job.state.status === 'completed' ? job.state : null;

  return (
    <div className="container page upscale-page" data-testid="upscale-page">
      <div className="upscale-head">
        <div>
          <h1>{t('upscale.title')}</h1>
          <p className="upscale-sub">{t('upscale.subtitle')}</p>
        </div>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => setDialog('guide')} data-testid="upscale-guide-button">
          {t('upscale.guide.button')}
        </button>
      </div>

      <div className="upscale-layout">
        <div className="upscale-stage-col">
          <ResultStage
            job={job.state}
            preview={upload.pendingPreview ?? image?.previewUrl ?? null}
            downloading={downloading}
            onRetry={job.reset}
            onFullscreen={() => setDialog('fullscreen')}
            onDownload={() => void download()}
          />
        </div>
        <aside className="upscale-controls card" aria-label={t('upscale.controlsLabel')}>
          <UploadArea image={image} pendingPreview={upload.pendingPreview} uploading={upload.uploading} disabled={upload.uploading || processing} onFile={(f) => void upload.select(f)} />
          <OptionsPanel options={options} onChange={(patch) => setOptions((prev) => updateOptions(prev, patch))} />
          <GenerateBar
            cost={cost}
            balance={balance}
            badge={badge}
            outputSize={outputSize}
            disabled={disabled}
            processing={processing || submitting}
            insufficient={insufficient}
            onGenerate={() => void generate()}
          />
        </aside>
      </div>

      <HistoryList items={items} loading={history.isPending && userId !== undefined} selectedId={selectedId} onSelect={selectHistory} />

      <BlockedDialog open={dialog === 'blocked'} onOpenChange={(o) => setDialog(o ? 'blocked' : null)} />
      <GuideDialog open={dialog === 'guide'} onOpenChange={(o) => setDialog(o ? 'guide' : null)} />
      <LargeImageDialog open={dialog === 'large'} onOpenChange={(o) => setDialog(o ? 'large' : null)} />
      {completed ? (
        <FullscreenCompare
          open={dialog === 'fullscreen'}
          onOpenChange={(o) => setDialog(o ? 'fullscreen' : null)}
          before={completed.originalUrl ?? completed.resultUrl}
          after={completed.resultUrl}
        />
      ) : null}
    </div>
  );
}
