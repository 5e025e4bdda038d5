import { DEFAULT_CREDITS_DISPLAY, FACE_EDIT, HISTORY_CLICK_DEBOUNCE_MS, type HistoryImage } from '@dewy/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { MaskEditor, type MaskColor, type MaskOp, type SavedMask } from '../../../shared/mask-editor';
import {
  FACE_EDIT_POLLING_SCHEDULE,
  FullscreenCompare,
  HistoryList,
  ResultStage,
  UploadArea,
  isAcceptedImageType,
  toolHistoryKey,
  uploadImage,
  useImageDownload,
  useImageUpload,
  usePagedToolHistory,
  useToolJob,
  type HistoryPaging,
  type ImageUploadConfig,
  type JobOutcome,
} from '../../../shared/tool-job';
import { postFaceEdit } from '../api/create-face-edit';
import { FACE_EDIT_FAILED_KEY, FACE_EDIT_TIMEOUT_KEY, faceEditErrorKey } from '../lib/errors';
import { runBlocker } from '../lib/run-check';
import { FACE_EDIT_JPEG_QUALITY, buildFaceEditInput, faceEditResizeTarget, faceEditRunCost, faceEditSeed } from '../lib/run-input';
import { GenderChoice, MaskPanel, RunBar, StrengthSlider } from './face-edit-controls';
import { ErrorDialog, IdleStage } from './face-edit-dialogs';
import './face-edit.css';
import { ShareLinkButton } from '../../../shared/affiliate';


/** Face-edit uploads (001 §5): image/jpeg and image/png only; downscaled to width + height = 3000, JPEG 0.92. */
const UPLOAD_CONFIG: ImageUploadConfig = {
  kind: 'face-edit-original',
  accepts: (file) => isAcceptedImageType(file.type),
  fileTypeKey: 'faceEdit.error.fileType',
  resizeTarget: faceEditResizeTarget,
  jpegQuality: FACE_EDIT_JPEG_QUALITY,
};

/** History page sizes (001 §7): 10 first, 15 on reload, 10 more per "load more". */
const HISTORY_PAGING: HistoryPaging = { first: FACE_EDIT.historyPage.first, reload: FACE_EDIT.historyPage.reload, more: FACE_EDIT.historyPage.first };

/** The saved mask: what painted it, its stored upload, and a tinted copy to show over the photo. */
interface MaskState {
  ops: MaskOp[];
  color: MaskColor;
  painted: number;
  coverage: number;
  /** The stored mask's URL (the run's `mask`); null while uploading, after a failed upload, or when empty. */
  url: string | null;
  uploading: boolean;
  /** Object URL of the tinted mask (released when replaced). */
  tintUrl: string;
}

/** `photo.jpg` → `photo-mask.png`. */
const maskFileName = (name: string) => `${name.replace(/\.[^.]+$/, '') || 'image'}-mask.png`;

/** The face-edit workspace (/face-edit, /en/face-edit), spec 001 §2–§9. */
export function FaceEditPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user, forceSync } = useSession();
  const userId = user?.id;

  const [strength, setStrength] = useState<number>(FACE_EDIT.strength.default);
  const [mask, setMask] = useState<MaskState | null>(null);
  const [editorOpen, setEditorOpen] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [fullscreen, setFullscreen] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const maskToken = useRef(0);
  const tintUrl = useRef<string | null>(null);

  /** Keep `next` as the tinted mask's object URL, releasing the previous one. */
  const replaceTint = useCallback((next: string | null) => {
    if (tintUrl.current) URL.revokeObjectURL(tintUrl.current);
    tintUrl.current = next;
  }, []);
  useEffect(() => () => replaceTint(null), [replaceTint]);

  const refreshAfterJob = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: toolHistoryKey('face_edit', userId) });
    void forceSync();
  }, [queryClient, userId, forceSync]);

  const onSettled = useCallback(
    (outcome: JobOutcome) => {
      refreshAfterJob();
      if (outcome.status === 'failed') setErrorKey(outcome.reason === 'timeout' ? FACE_EDIT_TIMEOUT_KEY : FACE_EDIT_FAILED_KEY);
    },
    [refreshAfterJob],
  );
  const job = useToolJob({
    source: 'face_edit',
    statusSource: 'face_edit',
    schedule: FACE_EDIT_POLLING_SCHEDULE,
    onSettled,
    failedKey: FACE_EDIT_FAILED_KEY,
    timeoutKey: FACE_EDIT_TIMEOUT_KEY,
  });
  const { reset: resetJob, track, show, fail } = job;

  /** A new photo: the old mask does not fit it. */
  const dropMask = useCallback(() => {
    maskToken.current += 1;
    replaceTint(null);
    setMask(null);
  }, [replaceTint]);

  const onUploaded = useCallback(() => {
    resetJob();
    setSelectedId(null);
    dropMask();
  }, [resetJob, dropMask]);
  const upload = useImageUpload(UPLOAD_CONFIG, onUploaded);
  const image = upload.image;
  const processing = job.state.status === 'processing';
  const { downloading, download } = useImageDownload({ failedKey: 'faceEdit.error.download', offlineKey: 'faceEdit.error.downloadOffline' });

  // Offline use gives an alert (001 §2).
  useEffect(() => {
    const onOffline = () => setErrorKey('faceEdit.error.offline');
    window.addEventListener('offline', onOffline);
    return () => window.removeEventListener('offline', onOffline);
  }, []);

  /** Save from the mask editor: keep it, show it over the photo, upload the PNG (an empty mask is kept, not sent). */
  const saveMask = async (saved: SavedMask) => {
    setEditorOpen(false);
    if (!image) return;
    maskToken.current += 1;
    const token = maskToken.current;
    const tint = URL.createObjectURL(saved.tint);
    replaceTint(tint);
    const painted = saved.paintedPixels > 0;
    setMask({ ops: saved.ops, color: saved.color, painted: saved.paintedPixels, coverage: saved.coverage, url: null, uploading: painted, tintUrl: tint });
    if (!processing) resetJob();
    if (!painted) return;
    try {
      const res = await uploadImage(saved.blob, maskFileName(image.name), 'face-edit-mask');
      if (token === maskToken.current) setMask((prev) => (prev ? { ...prev, url: res.imageUrl, uploading: false } : prev));
    } catch (err) {
      console.warn('[face-edit] mask upload failed', err);
      if (token !== maskToken.current) return;
      setMask((prev) => (prev ? { ...prev, uploading: false } : prev));
      const key = faceEditErrorKey(err, navigator.onLine);
      if (key) setErrorKey(key);
    }
  };

  /** Show a history item: its result, its running job (polling resumes) or its failure. */
  const openHistoryItem = useCallback(
    (item: HistoryImage) => {
      const jobId = item.runpod_job_id;
      setSelectedId(item.id);
      if (item.status === 'completed' && item.image_url) show(item.image_url, item.original_image_url, jobId);
      else if (item.status === 'processing' && jobId) track(jobId, item.original_image_url);
      else fail(FACE_EDIT_FAILED_KEY, jobId);
    },
    [show, track, fail],
  );

  // History: load failure toast. Once, on load: resume a processing job (001 §4), else show the newest
  // result unless a photo was already picked in this visit.
  const history = usePagedToolHistory('face_edit', userId, HISTORY_PAGING);
  const items = history.data?.images ?? [];
  useEffect(() => {
    if (history.isError) notify.error(t('toolJob.error.historyLoad'));
  }, [history.isError, t]);
  const jobStatus = job.state.status;
  const photoPicked = image !== null || upload.uploading;
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !history.data) return;
    opened.current = true;
    const list = history.data.images;
    const pending = list.find((i) => i.status === 'processing' && i.runpod_job_id);
    if (pending?.runpod_job_id) {
      if (jobStatus === 'idle') openHistoryItem(pending);
      return;
    }
    const last = list.find((i) => i.status === 'completed' && i.image_url);
    if (last && !photoPicked && jobStatus === 'idle') openHistoryItem(last);
  }, [history.data, photoPicked, jobStatus, openHistoryItem]);

  // History clicks are debounced 300 ms (001 §9); a running job keeps the stage.
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
  const loadMore = () => {
    history.loadMore().catch((err: unknown) => {
      console.warn('[face-edit] history page failed', err);
      notify.error(t('toolJob.error.historyLoad'));
    });
  };

  const balance = user?.credits ?? DEFAULT_CREDITS_DISPLAY;
  const cost = image ? faceEditRunCost(image.width, image.height) : null;
  const insufficient = cost !== null && balance < cost;
  const disabled = !image || upload.uploading || submitting || processing || insufficient || (mask?.uploading ?? false);

  const run = async () => {
    const blocker = runBlocker({
      hasImage: image !== null,
      online: navigator.onLine,
      mask: mask ? { uploaded: mask.url !== null, painted: mask.painted } : null,
      balance,
      cost,
    });
    if (blocker || !image || !mask?.url) {
      setErrorKey(blocker ?? 'faceEdit.error.maskRequired');
      return;
    }
    setSubmitting(true);
    try {
      const res = await postFaceEdit(buildFaceEditInput(image.imageUrl, mask.url, strength, faceEditSeed()));
      track(res.jobId, image.previewUrl);
      setSelectedId(res.imageId);
      refreshAfterJob();
    } catch (err) {
      console.warn('[face-edit] run failed', err);
      const key = faceEditErrorKey(err, navigator.onLine);
      if (key) setErrorKey(key);
    } finally {
      setSubmitting(false);
    }
  };

  const completed = job.state.status === 'completed' ? job.state : null;
  const preview = upload.pendingPreview ?? image?.previewUrl ?? null;

  return (
    <div className="container page face-edit-page" data-testid="face-edit-page">
      <div className="face-edit-head">
        <div>
          <h1>{t('faceEdit.title')}</h1>
          <p className="face-edit-sub">{t('faceEdit.subtitle')}</p>
        </div>
        <ShareLinkButton testIdPrefix="face-edit" />
      </div>

      <div className="face-edit-layout">
        <div className="face-edit-stage-col">
          <ResultStage
            testIdPrefix="face-edit"
            job={job.state}
            progress={job.progress}
            connection={job.connection}
            preview={preview}
            idle={<IdleStage />}
            previewOverlay={
              mask && mask.painted > 0 && !upload.pendingPreview ? (
                <img className="stage-preview-overlay face-edit-mask-overlay" src={mask.tintUrl} alt="" data-testid="face-edit-mask-overlay" />
              ) : null
            }
            copy={{ afterAlt: t('faceEdit.result.afterAlt'), processingTitle: t('faceEdit.result.processingTitle'), processingWait: t('faceEdit.result.processingWait') }}
            downloading={downloading}
            onRetry={job.reset}
            onFullscreen={() => setFullscreen(true)}
            onDownload={() => {
              if (completed) void download(completed.resultUrl);
            }}
          />
        </div>
        <aside className="face-edit-controls card" aria-label={t('faceEdit.controlsLabel')}>
          <UploadArea
            testIdPrefix="face-edit"
            hint={t('faceEdit.upload.hint')}
            accept="image/jpeg,image/png"
            image={image}
            pendingPreview={upload.pendingPreview}
            uploading={upload.uploading}
            disabled={upload.uploading || processing}
            onFile={(f) => void upload.select(f)}
          />
          <GenderChoice />
          <StrengthSlider value={strength} onChange={setStrength} />
          <MaskPanel
            mask={mask ? { painted: mask.painted, coverage: mask.coverage, uploading: mask.uploading, uploaded: mask.url !== null } : null}
            canEdit={image !== null && !upload.uploading}
            onOpen={() => setEditorOpen(true)}
          />
          <RunBar cost={cost} balance={balance} disabled={disabled} processing={processing || submitting} insufficient={insufficient} onRun={() => void run()} />
        </aside>
      </div>

      <HistoryList
        testIdPrefix="face-edit"
        emptyText={t('faceEdit.history.empty')}
        items={items}
        loading={history.isPending && userId !== undefined}
        selectedId={selectedId}
        onSelect={selectHistory}
        hasMore={history.hasMore}
        loadingMore={history.loadingMore}
        onLoadMore={loadMore}
      />

      {image ? (
        <MaskEditor
          open={editorOpen}
          onOpenChange={setEditorOpen}
          imageUrl={image.previewUrl}
          width={image.width}
          height={image.height}
          initialOps={mask?.ops}
          initialColor={mask?.color}
          onSave={(saved) => void saveMask(saved)}
          downloadName={maskFileName(image.name)}
        />
      ) : null}
      <ErrorDialog messageKey={errorKey} onClose={() => setErrorKey(null)} />
      {completed ? (
        <FullscreenCompare
          testIdPrefix="face-edit"
          open={fullscreen}
          onOpenChange={setFullscreen}
          before={completed.originalUrl ?? completed.resultUrl}
          after={completed.resultUrl}
          afterAlt={t('faceEdit.result.afterAlt')}
        />
      ) : null}
    </div>
  );
}
