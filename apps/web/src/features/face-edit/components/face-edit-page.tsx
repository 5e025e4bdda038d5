import { FACE_EDIT } from '@dewy/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MaskEditor, type MaskColor, type MaskOp, type SavedMask } from '../../../shared/mask-editor';
import { ShareLinkButton } from '../../../shared/affiliate';
import { FullscreenCompare, HistoryList, ResultStage, UploadArea, useToolWorkspace } from '../../../shared/tool-job';
import { runBlocker } from '../lib/run-check';
import { buildFaceEditInput, faceEditSeed } from '../lib/run-input';
import { faceEditTool } from '../tool';
import { GenderChoice, MaskPanel, RunBar, StrengthSlider } from './face-edit-controls';
import { ErrorDialog, IdleStage } from './face-edit-dialogs';
import './face-edit.css';

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

/**
 * The face-edit workspace (/face-edit, /en/face-edit), spec 001 §2–§9: its options (strength, the mask)
 * and its layout; upload, the job, the history and the error dialog's messages are the shared
 * workspace's (faceEditTool).
 */
export function FaceEditPage() {
  const { t } = useTranslation();
  const [strength, setStrength] = useState<number>(FACE_EDIT.strength.default);
  const [mask, setMask] = useState<MaskState | null>(null);
  const [editorOpen, setEditorOpen] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const maskToken = useRef(0);
  const tintUrl = useRef<string | null>(null);

  /** Keep `next` as the tinted mask's object URL, releasing the previous one. */
  const replaceTint = useCallback((next: string | null) => {
    if (tintUrl.current) URL.revokeObjectURL(tintUrl.current);
    tintUrl.current = next;
  }, []);
  useEffect(() => () => replaceTint(null), [replaceTint]);

  /** A new photo: the old mask does not fit it. */
  const dropMask = useCallback(() => {
    maskToken.current += 1;
    replaceTint(null);
    setMask(null);
  }, [replaceTint]);

  const ws = useToolWorkspace(faceEditTool, { onUploaded: dropMask });
  const { upload, job, say } = ws;
  const image = upload.image;
  const processing = job.status === 'processing';

  // Offline use gives an alert (001 §2).
  useEffect(() => {
    const onOffline = () => say({ key: 'faceEdit.error.offline' });
    window.addEventListener('offline', onOffline);
    return () => window.removeEventListener('offline', onOffline);
  }, [say]);

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
    if (!processing) ws.reset();
    if (!painted) return;
    const url = await ws.uploadFile(saved.blob, maskFileName(image.name), 'face-edit-mask');
    if (token === maskToken.current) setMask((prev) => (prev ? { ...prev, url, uploading: false } : prev));
  };

  const cost = image ? faceEditTool.cost({ width: image.width, height: image.height }) : null;
  const insufficient = cost !== null && ws.balance < cost;
  const disabled = !image || upload.uploading || ws.busy || insufficient || (mask?.uploading ?? false);

  const run = () => {
    const blocker = runBlocker({
      hasImage: image !== null,
      online: navigator.onLine,
      mask: mask ? { uploaded: mask.url !== null, painted: mask.painted } : null,
      balance: ws.balance,
      cost,
    });
    const maskUrl = mask?.url;
    if (blocker || !image || !maskUrl) {
      say({ key: blocker ?? 'faceEdit.error.maskRequired' });
      return;
    }
    void ws.start(async () => {
      const res = await faceEditTool.api.create(buildFaceEditInput(image.imageUrl, maskUrl, strength, faceEditSeed()));
      return { jobId: res.jobId, originalUrl: image.previewUrl, selectKey: res.imageId };
    });
  };

  const completed = job.status === 'completed' ? job : null;
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
            job={job}
            progress={ws.progress}
            connection={ws.connection}
            preview={preview}
            idle={<IdleStage />}
            previewOverlay={
              mask && mask.painted > 0 && !upload.pendingPreview ? (
                <img className="stage-preview-overlay face-edit-mask-overlay" src={mask.tintUrl} alt="" data-testid="face-edit-mask-overlay" />
              ) : null
            }
            copy={{ afterAlt: t('faceEdit.result.afterAlt'), processingTitle: t('faceEdit.result.processingTitle'), processingWait: t('faceEdit.result.processingWait') }}
            downloading={ws.downloading}
            onRetry={ws.reset}
            onFullscreen={() => setFullscreen(true)}
            onDownload={() => {
              if (completed) void ws.download(completed.resultUrl);
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
          <RunBar cost={cost} balance={ws.balance} disabled={disabled} processing={ws.busy} insufficient={insufficient} onRun={run} />
        </aside>
      </div>

      <HistoryList
        testIdPrefix="face-edit"
        emptyText={t('faceEdit.history.empty')}
        items={ws.state.history.items}
        loading={ws.state.history.loading}
        selectedId={ws.state.selectedKey}
        onSelect={ws.selectHistory}
        hasMore={ws.state.history.hasMore}
        loadingMore={ws.state.history.loadingMore}
        onLoadMore={ws.loadMore}
        onDelete={ws.deleteHistoryItem}
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
      <ErrorDialog message={ws.state.message} text={ws.text} onClose={ws.dismissMessage} />
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
