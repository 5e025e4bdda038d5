import {
  DEFAULT_CREDITS_DISPLAY,
  HISTORY_CLICK_DEBOUNCE_MS,
  LARGE_IMAGE_NOTICE_SUM,
  isUpscaleBlocked,
  scaledSum,
  sizeBadge,
  uploadResizeTarget,
  upscaleCost,
  type HistoryImage,
} from '@dewy/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../../lib/session';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { ShareLinkButton } from '../../../shared/affiliate';
import {
  FullscreenCompare,
  HistoryList,
  JOB_FAILED_KEY,
  ResultStage,
  UPSCALE_POLLING_SCHEDULE,
  UploadArea,
  isAcceptedImageName,
  toolHistoryKey,
  useImageDownload,
  useImageUpload,
  useToolHistory,
  useToolJob,
  type ImageUploadConfig,
  type UploadedImage,
} from '../../../shared/tool-job';
import { postUpscale } from '../api/create-upscale';
import { upscaleFailure } from '../lib/errors';
import { takeUpscaleHandoff } from '../lib/handoff';
import { DEFAULT_OPTIONS, buildUpscaleInput, optionsFromInput, randomSeed, updateOptions, type UpscaleOptions } from '../lib/options';
import { recallJobOptions, rememberJobOptions } from '../lib/options-memory';
import { scaleLimitFor } from '../lib/scale-limit';
import { GenerateBar } from './generate-bar';
import { OptionsPanel } from './options-panel';
import { SampleStage } from './sample-stage';
import { BlockedDialog, GuideDialog, LargeImageDialog } from './upscale-dialogs';
import './upscale.css';


/** Retouch uploads: jpg/jpeg/png by extension, the pixel-sum resize table (001 §5). */
const UPLOAD_CONFIG: ImageUploadConfig = {
  kind: 'upscale-original',
  accepts: (file) => isAcceptedImageName(file.name),
  fileTypeKey: 'upscale.error.fileType',
  resizeTarget: uploadResizeTarget,
};

/** The stored original of a history item with its size, when the item tells it. */
function originalOf(item: HistoryImage): { imageUrl: string; width: number; height: number } | null {
  const input = item.input ?? {};
  const width = item.original_width ?? (typeof input.width === 'number' ? input.width : null);
  const height = item.original_height ?? (typeof input.height === 'number' ? input.height : null);
  if (!item.original_image_url || !width || !height) return null;
  return { imageUrl: item.original_image_url, width, height };
}

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
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<'blocked' | 'guide' | 'large' | 'fullscreen' | null>(null);

  const refreshAfterJob = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: toolHistoryKey('upscale', userId) });
    void forceSync();
  }, [queryClient, userId, forceSync]);

  const job = useToolJob({ source: 'upscale', schedule: UPSCALE_POLLING_SCHEDULE, onSettled: refreshAfterJob });
  const { reset: resetJob, track, show, fail } = job;
  const onUploaded = useCallback(
    (img: UploadedImage) => {
      resetJob();
      setSelectedId(null);
      if (img.width + img.height >= LARGE_IMAGE_NOTICE_SUM) setDialog('large');
    },
    [resetJob],
  );
  const upload = useImageUpload(UPLOAD_CONFIG, onUploaded);
  const image = upload.image;
  const { adopt, restore } = upload;
  useEffect(() => {
    const handoff = takeUpscaleHandoff();
    if (handoff) void adopt(handoff);
  }, [adopt]);
  const processing = job.state.status === 'processing';
  const { downloading, download } = useImageDownload();

  /** Show a history item as the workspace: its result (or running job), its photo, its options. */
  const openHistoryItem = useCallback(
    (item: HistoryImage) => {
      const jobId = item.runpod_job_id;
      const restored = optionsFromInput(item.input, userId !== undefined ? recallJobOptions(userId, jobId) : null);
      if (restored) setOptions(restored);
      const original = originalOf(item);
      if (original) restore(original);
      setSelectedId(item.id);
      if (item.status === 'completed' && item.image_url) show(item.image_url, item.original_image_url, jobId);
      else if (item.status === 'processing' && jobId) track(jobId, item.original_image_url);
      else fail(JOB_FAILED_KEY, jobId);
    },
    [userId, restore, show, track, fail],
  );

  // History: load failure toast. Once, on load: resume polling of a processing item (001 §4); otherwise,
  // unless a photo was already picked in this visit, show the newest result with its options.
  const history = useToolHistory('upscale', userId);
  const items = history.data?.images ?? [];
  useEffect(() => {
    // An ended session is told by the session-expired modal alone (issue 17).
    if (history.isError && !(history.error instanceof ApiError && history.error.sessionEnded)) notify.error(t('toolJob.error.historyLoad'));
  }, [history.isError, history.error, t]);
  const jobStatus = job.state.status;
  const photoPicked = image !== null || upload.uploading;
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !history.data) return;
    opened.current = true;
    const list = history.data.images;
    const busy = photoPicked || jobStatus !== 'idle';
    const pending = list.find((i) => i.status === 'processing' && i.runpod_job_id);
    if (pending?.runpod_job_id) {
      if (!busy) {
        openHistoryItem(pending);
      } else if (jobStatus === 'idle') {
        track(pending.runpod_job_id, pending.original_image_url);
        setSelectedId(pending.id);
      }
      return;
    }
    const last = list.find((i) => i.status === 'completed' && i.image_url);
    if (last && !busy) openHistoryItem(last);
  }, [history.data, photoPicked, jobStatus, openHistoryItem, track]);

  // History clicks are debounced 300 ms (001 §9).
  const clickTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(clickTimer.current), []);
  const selectHistory = useCallback(
    (item: HistoryImage) => {
      window.clearTimeout(clickTimer.current);
      clickTimer.current = window.setTimeout(() => {
        if (processing) {
          notify.info(t('toolJob.history.busy'));
          return;
        }
        openHistoryItem(item);
      }, HISTORY_CLICK_DEBOUNCE_MS);
    },
    [processing, openHistoryItem, t],
  );

  const balance = user?.credits ?? DEFAULT_CREDITS_DISPLAY;
  const cost = image ? upscaleCost(image.width, image.height, options.scale) : null;
  const insufficient = cost !== null && balance < cost;
  const outputSize = image ? { width: Math.round(image.width * options.scale), height: Math.round(image.height * options.scale) } : null;
  const badge = image ? sizeBadge(scaledSum(image.width, image.height, options.scale)) : null;
  const scaleLimit = scaleLimitFor(image, options.scale);
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
      rememberJobOptions(user.id, res.jobId, options);
      track(res.jobId, image.previewUrl);
      setSelectedId(res.imageId);
      refreshAfterJob();
    } catch (err) {
      const failure = upscaleFailure(err);
      if (failure.kind === 'blocked') setDialog('blocked');
      else if (failure.kind === 'message') notify.error(t(failure.key));
    } finally {
      setSubmitting(false);
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
        <div className="upscale-head-actions">
          <ShareLinkButton testIdPrefix="upscale" />
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setDialog('guide')} data-testid="upscale-guide-button">
            {t('upscale.guide.button')}
          </button>
        </div>
      </div>

      <div className="upscale-layout">
        <div className="upscale-stage-col">
          <ResultStage
            testIdPrefix="upscale"
            job={job.state}
            progress={job.progress}
            connection={job.connection}
            preview={upload.pendingPreview ?? image?.previewUrl ?? null}
            idle={<SampleStage />}
            copy={{ afterAlt: t('upscale.result.afterAlt'), processingTitle: t('upscale.result.processingTitle'), processingWait: t('upscale.result.processingWait') }}
            downloading={downloading}
            onRetry={job.reset}
            onFullscreen={() => setDialog('fullscreen')}
            onDownload={() => {
              if (completed) void download(completed.resultUrl);
            }}
          />
        </div>
        <aside className="upscale-controls card" aria-label={t('upscale.controlsLabel')}>
          <UploadArea
            testIdPrefix="upscale"
            hint={t('upscale.upload.hint')}
            image={image}
            pendingPreview={upload.pendingPreview}
            uploading={upload.uploading}
            disabled={upload.uploading || processing}
            onFile={(f) => void upload.select(f)}
          />
          <OptionsPanel options={options} scaleLimit={scaleLimit} onChange={(patch) => setOptions((prev) => updateOptions(prev, patch))} />
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

      <HistoryList
        testIdPrefix="upscale"
        emptyText={t('upscale.history.empty')}
        items={items}
        loading={history.isPending && userId !== undefined}
        selectedId={selectedId}
        onSelect={selectHistory}
      />

      <BlockedDialog open={dialog === 'blocked'} onOpenChange={(o) => setDialog(o ? 'blocked' : null)} />
      <GuideDialog open={dialog === 'guide'} onOpenChange={(o) => setDialog(o ? 'guide' : null)} />
      <LargeImageDialog open={dialog === 'large'} onOpenChange={(o) => setDialog(o ? 'large' : null)} />
      {completed ? (
        <FullscreenCompare
          testIdPrefix="upscale"
          open={dialog === 'fullscreen'}
          onOpenChange={(o) => setDialog(o ? 'fullscreen' : null)}
          before={completed.originalUrl ?? completed.resultUrl}
          after={completed.resultUrl}
          afterAlt={t('upscale.result.afterAlt')}
        />
      ) : null}
    </div>
  );
}
