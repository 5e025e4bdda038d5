import { BATCH_LIMITS, LARGE_IMAGE_NOTICE_SUM, isUpscaleBlocked, scaledSum, sizeBadge, type HistoryImage } from '@dewy/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { ShareLinkButton } from '../../../shared/affiliate';
import { FullscreenCompare, HistoryList, ResultStage, UploadArea, useToolWorkspace } from '../../../shared/tool-job';
import { DEFAULT_OPTIONS, buildUpscaleInput, dewySkinLabel, optionsFromInput, randomSeed, updateOptions, type UpscaleOptions } from '../lib/options';
import { recallJobOptions, rememberJobOptions } from '../lib/options-memory';
import { scaleLimitFor } from '../lib/scale-limit';
import { upscaleTool } from '../tool';
import { GenerateBar } from './generate-bar';
import { OptionsPanel } from './options-panel';
import { SampleStage } from './sample-stage';
import { BlockedDialog, GuideDialog, LargeImageDialog } from './upscale-dialogs';
import './upscale.css';

/** The stored original of a history item with its size, when the item tells it. */
function originalOf(item: HistoryImage): { imageUrl: string; width: number; height: number } | null {
  const input = item.input ?? {};
  const width = item.original_width ?? (typeof input.width === 'number' ? input.width : null);
  const height = item.original_height ?? (typeof input.height === 'number' ? input.height : null);
  if (!item.original_image_url || !width || !height) return null;
  return { imageUrl: item.original_image_url, width, height };
}

/**
 * The retouch/upscale workspace (/upscale, /en/upscale), spec 001 §2–§5: its options and its layout;
 * upload, the job, the history and the messages are the shared workspace's (upscaleTool).
 */
export function UpscalePage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const navigate = useNavigate();
  const { user } = useSession();
  const [options, setOptions] = useState<UpscaleOptions>(DEFAULT_OPTIONS);
  const [dialog, setDialog] = useState<'guide' | 'large' | 'fullscreen' | null>(null);

  const ws = useToolWorkspace(upscaleTool, {
    // A past result comes back with its photo and the options it was made with.
    onOpenItem: (item, { restoreInput }) => {
      const restored = optionsFromInput(item.input, user ? recallJobOptions(user.id, item.runpod_job_id) : null);
      if (restored) setOptions(restored);
      const original = originalOf(item);
      if (original) restoreInput(original);
    },
    onUploaded: (img) => {
      if (img.width + img.height >= LARGE_IMAGE_NOTICE_SUM) setDialog('large');
    },
  });
  const { upload, job } = ws;
  const image = upload.image;
  const processing = job.status === 'processing';

  const cost = image ? upscaleTool.cost({ width: image.width, height: image.height, scale: options.scale }) : null;
  const insufficient = cost !== null && ws.balance < cost;
  const outputSize = image ? { width: Math.round(image.width * options.scale), height: Math.round(image.height * options.scale) } : null;
  const badge = image ? sizeBadge(scaledSum(image.width, image.height, options.scale)) : null;
  const scaleLimit = scaleLimitFor(image, options.scale);
  const disabled = upload.uploading || ws.busy || options.scale <= 0 || insufficient;

  const generate = () => {
    if (!image) {
      ws.toast({ key: 'upscale.error.noImage' });
      return;
    }
    if (!user) {
      ws.toast({ key: 'upscale.error.loginRequired' });
      void navigate(lp('/login'));
      return;
    }
    if (isUpscaleBlocked(image.width, image.height, options.scale)) {
      ws.say({ dialog: 'blocked' });
      return;
    }
    void ws.start(async () => {
      const res = await upscaleTool.api.create(buildUpscaleInput(options, image, randomSeed()));
      rememberJobOptions(user.id, res.jobId, options);
      return { jobId: res.jobId, originalUrl: image.previewUrl, selectKey: res.imageId };
    });
  };

  const completed = job.status === 'completed' ? job : null;
  // 001 §9: the dewy-skin result names its filter ('Fair-skin filter 0.75'), read from what the server stored.
  const dewy = completed ? dewySkinLabel(ws.state.history.items.find((i) => i.runpod_job_id === completed.jobId)?.input) : null;
  const resultLabel = dewy ? t(`upscale.result.filterLabel.${dewy.filter}`, { strength: dewy.strength }) : null;
  const blockedOpen = ws.state.message !== null && 'dialog' in ws.state.message && ws.state.message.dialog === 'blocked';

  return (
    <div className="container page upscale-page" data-testid="upscale-page">
      <div className="upscale-head">
        <div>
          <h1>{t('upscale.title')}</h1>
          <p className="upscale-sub">{t('upscale.subtitle')}</p>
        </div>
        <div className="upscale-head-actions">
          <Link className="btn btn-secondary btn-sm" to={lp('/upscale/batch')} data-testid="upscale-batch-link">
            {t('batch.batchLink', { max: BATCH_LIMITS.maxPhotos })}
          </Link>
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
            job={job}
            progress={ws.progress}
            connection={ws.connection}
            preview={upload.pendingPreview ?? image?.previewUrl ?? null}
            idle={<SampleStage />}
            resultLabel={resultLabel}
            copy={{ afterAlt: t('upscale.result.afterAlt'), processingTitle: t('upscale.result.processingTitle'), processingWait: t('upscale.result.processingWait') }}
            downloading={ws.downloading}
            onRetry={ws.reset}
            onFullscreen={() => setDialog('fullscreen')}
            onDownload={() => {
              if (completed) void ws.download(completed.resultUrl);
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
            balance={ws.balance}
            badge={badge}
            outputSize={outputSize}
            disabled={disabled}
            processing={ws.busy}
            insufficient={insufficient}
            onGenerate={generate}
          />
        </aside>
      </div>

      <HistoryList
        testIdPrefix="upscale"
        emptyText={t('upscale.history.empty')}
        items={ws.state.history.items}
        loading={ws.state.history.loading}
        selectedId={ws.state.selectedKey}
        onSelect={ws.selectHistory}
        hasMore={ws.state.history.hasMore}
        loadingMore={ws.state.history.loadingMore}
        onLoadMore={ws.loadMore}
        onDelete={ws.deleteHistoryItem}
        autoLoadMore
      />

      <BlockedDialog
        open={blockedOpen}
        onOpenChange={(o) => {
          if (!o) ws.dismissMessage();
        }}
      />
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
