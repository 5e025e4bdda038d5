import { IMAGE_EDIT, type SeedreamHistoryItem } from '@dewy/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { MaskEditor, type MaskColor, type MaskOp, type SavedMask } from '../../../shared/mask-editor';
import { loadImage, useToolWorkspace } from '../../../shared/tool-job';
import { startImageEdit } from '../lib/run-flow';
import { fileSizeError, fileTypeError, parseSeed, pixelError, randomSeed, scaledSize, tilesForDrop } from '../lib/rules';
import { imageEditDialog, imageEditTool } from '../tool';
import { ErrorDialog, ViewerDialog } from './dialogs';
import { HistoryPanel } from './history-panel';
import { ImageGrid, type Tile } from './image-grid';
import { ResultsPanel } from './results-panel';
import { SettingsPanel, type EditSettings } from './settings-panel';
import './image-edit.css';

/** The mask of image 1: what painted it, its tinted preview and its stored upload (decision 023). */
interface MaskState {
  ops: MaskOp[];
  color: MaskColor;
  painted: number;
  tintUrl: string;
  url: string | null;
  uploading: boolean;
}

const EMPTY_TILES: (Tile | null)[] = Array.from({ length: IMAGE_EDIT.maxImages }, () => null);
const defaultSettings = (): EditSettings => ({
  width: IMAGE_EDIT.side.default,
  height: IMAGE_EDIT.side.default,
  scale: IMAGE_EDIT.scale.default,
  numImages: IMAGE_EDIT.numImages.default,
  maxImages: IMAGE_EDIT.maxImagesPerCall.default,
  seed: String(randomSeed()),
});
/** Image 1's size within 4096 px: the output size of a masked edit (the server decides the same, decision 023). */
const maskedSide = (tile: Tile) => {
  const k = Math.min(1, IMAGE_EDIT.side.max / Math.max(tile.width, tile.height));
  return { width: Math.max(1, Math.round(tile.width * k)), height: Math.max(1, Math.round(tile.height * k)) };
};
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The image-edit tool (/image-edit, /en/image-edit), spec 002 §2–§9 on Seedream: its options (prompt,
 * reference tiles, mask, settings) and its layout; the job, the history and the 002 §8 dialog's
 * messages are the shared workspace's (imageEditTool).
 */
export function ImageEditPage() {
  const { t } = useTranslation();
  const config = useQuery({ queryKey: ['seedream-config'], queryFn: imageEditTool.api.config, staleTime: 60_000 });
  const configured = config.data?.configured ?? true;

  const [prompt, setPrompt] = useState('');
  const [autoPrompt, setAutoPrompt] = useState(false);
  const [tiles, setTiles] = useState<(Tile | null)[]>(EMPTY_TILES);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settings, setSettings] = useState<EditSettings>(defaultSettings);
  const [mask, setMask] = useState<MaskState | null>(null);
  const [editorOpen, setEditorOpen] = useState(false);
  const [viewer, setViewer] = useState<string | null>(null);
  const tilesRef = useRef(tiles);
  tilesRef.current = tiles;

  // A history item shows its results and puts its prompt back (002 §2).
  const ws = useToolWorkspace(imageEditTool, {
    onOpenItem: (item: SeedreamHistoryItem) => {
      if (item.prompt) setPrompt(item.prompt);
    },
  });
  const { job } = ws;
  const running = ws.busy;
  const results = !running && job.status === 'completed' ? { urls: job.urls, partial: job.partial } : { urls: [], partial: false };

  // Object URLs are released when their tile or mask goes.
  const release = (url: string | undefined | null) => {
    if (url?.startsWith('blob:')) URL.revokeObjectURL(url);
  };
  useEffect(
    () => () => {
      for (const tile of tilesRef.current) release(tile?.previewUrl);
    },
    [],
  );
  const dropMask = () =>
    setMask((m) => {
      release(m?.tintUrl);
      return null;
    });

  /** Checks and uploads one file into tile `index` (002 §5: type, 9 MB, 921600 px). */
  const addFile = async (index: number, file: File) => {
    const bad = fileTypeError(file) ?? fileSizeError(file);
    if (bad) {
      ws.toast({ key: bad.key, values: bad.values });
      return;
    }
    const previewUrl = URL.createObjectURL(file);
    let img: HTMLImageElement;
    try {
      img = await loadImage(previewUrl);
    } catch {
      release(previewUrl);
      ws.say({ titleKey: 'imageEdit.dialog.errorTitle', key: 'imageEdit.error.unreadable' });
      return;
    }
    const small = pixelError(img.naturalWidth, img.naturalHeight);
    if (small) {
      release(previewUrl);
      ws.toast({ key: small.key, values: small.values });
      return;
    }
    if (index === 0) dropMask();
    setTiles((prev) => {
      const next = [...prev];
      release(next[index]?.previewUrl);
      next[index] = { name: file.name, previewUrl, width: img.naturalWidth, height: img.naturalHeight, url: null, uploading: true };
      return next;
    });
    const url = await ws.uploadFile(file, file.name, 'seedream-ref');
    setTiles((prev) => prev.map((x, i) => (i === index && x?.previewUrl === previewUrl ? (url ? { ...x, url, uploading: false } : null) : x)));
    if (!url) release(previewUrl);
  };
  const onFiles = (index: number, files: File[]) => {
    const occupied = tilesRef.current.map((x) => x !== null);
    // The target tile takes the first file even when it holds one (a replace); the rest fill free tiles.
    const targets = [index, ...tilesForDrop(occupied.map((o, i) => o || i === index), index, files.length - 1)];
    if (files.length > targets.length) ws.toast({ key: 'imageEdit.error.maxImages', values: { max: IMAGE_EDIT.maxImages } });
    targets.forEach((ti, k) => {
      const f = files[k];
      if (f) void addFile(ti, f);
    });
  };
  const removeTile = (index: number) => {
    if (index === 0) dropMask();
    setTiles((prev) => {
      const next = [...prev];
      release(next[index]?.previewUrl);
      next[index] = null;
      return next;
    });
  };

  const saveMask = async (saved: SavedMask) => {
    setEditorOpen(false);
    const first = tilesRef.current[0];
    if (!first) return;
    const tint = URL.createObjectURL(saved.tint);
    setMask((m) => {
      release(m?.tintUrl);
      return { ops: saved.ops, color: saved.color, painted: saved.paintedPixels, tintUrl: tint, url: null, uploading: saved.paintedPixels > 0 };
    });
    if (saved.paintedPixels === 0) return;
    const url = await ws.uploadFile(saved.blob, `${first.name.replace(/\.[^.]+$/, '')}-mask.png`, 'seedream-ref');
    setMask((m) => (m && m.tintUrl === tint ? { ...m, url, uploading: false } : m));
  };

  const effective = scaledSize(settings.width, settings.height, settings.scale);
  const picked = tiles.filter((x): x is Tile => x !== null);
  const uploading = picked.some((x) => x.uploading) || (mask?.uploading ?? false);
  const cost = imageEditTool.cost({ numImages: settings.numImages, autoPrompt });
  const balance = ws.balance;
  const canRun = configured && prompt.trim().length > 0 && picked.length > 0 && !uploading && !running;

  const reset = () => {
    for (const tile of tiles) release(tile?.previewUrl);
    dropMask();
    setTiles(EMPTY_TILES);
    setPrompt('');
    setAutoPrompt(false);
    setSettings(defaultSettings());
    ws.reset();
  };

  const run = () => {
    // 002 §4: only with a prompt and no run in progress.
    if (running) return;
    if (!prompt.trim()) {
      ws.toast({ key: 'imageEdit.error.promptRequired' });
      return;
    }
    if (!configured) {
      ws.say(imageEditDialog('NOT_CONFIGURED'));
      return;
    }
    const urls = tilesRef.current.filter((x): x is Tile => x !== null).map((x) => x.url);
    if (urls.length === 0) {
      ws.toast({ key: 'imageEdit.error.imageRequired' });
      return;
    }
    if (urls.some((u) => u === null) || mask?.uploading) return;
    const seed = parseSeed(settings.seed);
    if (seed === null) {
      ws.toast({ key: 'imageEdit.error.seed', values: { min: IMAGE_EDIT.seed.min, max: IMAGE_EDIT.seed.max } });
      return;
    }
    if (balance < cost) {
      ws.say(imageEditDialog('INSUFFICIENT_CREDITS'));
      return;
    }
    const images = urls as string[];
    const body = {
      images,
      num_images: settings.numImages,
      max_images: settings.maxImages,
      size: `${effective.width}x${effective.height}`,
      seed,
      auto_prompt_used: autoPrompt,
      mask: mask?.url ?? null,
      mask_color: mask?.color ?? 'blue',
    };
    void ws.start(async () => {
      const out = await startImageEdit(
        {
          autoPrompt: imageEditTool.api.autoPrompt,
          generate: (p) => imageEditTool.api.generate({ ...body, prompt: p }),
          latestHistory: async () => (await imageEditTool.api.history({ limit: IMAGE_EDIT.historyPage.first, offset: 0 })).items,
          sleep,
          now: () => Date.now(),
          httpStatusOf: (err) => (err instanceof ApiError ? err.status : undefined),
        },
        { prompt: prompt.trim(), autoPrompt, images },
      );
      if (out.kind !== 'failed' && out.kind !== 'timeout' && autoPrompt) setPrompt(out.prompt);
      switch (out.kind) {
        case 'started':
          return { jobId: out.taskId };
        case 'completed':
          return { completed: { jobId: out.taskId, urls: out.urls, partial: out.partial } };
        case 'timeout':
          return { timeout: true };
        case 'failed':
          // The generate call's own error goes through the catalogue (a session that ended says nothing more).
          if (out.cause !== undefined) throw out.cause;
          return { failed: { code: out.code ?? null, message: out.message ?? null } };
      }
    });
  };

  // Ctrl+Enter runs (002 §2).
  const runRef = useRef(run);
  runRef.current = run;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
        e.preventDefault();
        runRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const first = tiles[0];
  return (
    <div className="container page image-edit-page" data-testid="image-edit-page">
      <div className="image-edit-head">
        <h1>{t('imageEdit.title')}</h1>
        <p className="image-edit-sub">{t('imageEdit.subtitle')}</p>
      </div>
      {config.data && !configured ? (
        <div className="image-edit-notice" role="status" data-testid="image-edit-not-configured">
          {t('imageEdit.notConfigured')}
        </div>
      ) : null}

      <div className="image-edit-layout">
        <div className="image-edit-input card">
          <label className="image-edit-prompt">
            <span>{t('imageEdit.prompt.label')}</span>
            <textarea
              value={prompt}
              rows={4}
              maxLength={4000}
              placeholder={t('imageEdit.prompt.placeholder')}
              onChange={(e) => setPrompt(e.target.value)}
              disabled={running}
              data-testid="image-edit-prompt"
            />
          </label>
          <label className="image-edit-auto">
            <input type="checkbox" checked={autoPrompt} disabled={running} onChange={(e) => setAutoPrompt(e.target.checked)} data-testid="image-edit-auto-prompt" />
            <span>{t('imageEdit.prompt.auto', { cost: IMAGE_EDIT.autoPromptCost })}</span>
          </label>

          <ImageGrid tiles={tiles} disabled={running} onFiles={onFiles} onRemove={removeTile} onMask={() => setEditorOpen(true)} maskTint={mask && mask.painted > 0 ? mask.tintUrl : null} maskSaved={Boolean(mask?.url)} />
          {mask && mask.painted > 0 ? (
            <p className="image-edit-hint" data-testid="image-edit-mask-status">
              {mask.uploading ? t('imageEdit.mask.uploading') : t('imageEdit.mask.saved', { width: first ? maskedSide(first).width : 0, height: first ? maskedSide(first).height : 0 })}
            </p>
          ) : null}

          <SettingsPanel
            open={settingsOpen}
            onToggle={() => setSettingsOpen((o) => !o)}
            value={settings}
            onChange={setSettings}
            effective={effective}
            canMatchFirst={Boolean(first)}
            onMatchFirst={() => {
              if (!first) {
                ws.say({ titleKey: 'imageEdit.dialog.errorTitle', key: 'imageEdit.error.firstSize' });
                return;
              }
              setSettings((s) => ({ ...s, width: Math.min(IMAGE_EDIT.side.max, first.width), height: Math.min(IMAGE_EDIT.side.max, first.height), scale: 0 }));
            }}
            onRandomSeed={() => setSettings((s) => ({ ...s, seed: String(randomSeed()) }))}
            disabled={running}
          />

          <div className="image-edit-actions">
            <button type="button" className="btn btn-secondary" onClick={reset} disabled={running} data-testid="image-edit-reset">
              {t('imageEdit.reset')}
            </button>
            <button type="button" className="btn btn-primary image-edit-run" onClick={() => void run()} disabled={!canRun} data-testid="image-edit-run">
              {running ? t('imageEdit.running') : t('imageEdit.run', { cost })}
            </button>
          </div>
          <p className="image-edit-hint">{t('imageEdit.runHint', { balance })}</p>
        </div>

        <div className="image-edit-output card">
          <h2>{t('imageEdit.results.title')}</h2>
          <ResultsPanel loadingCount={running ? settings.numImages : 0} urls={results.urls} partial={results.partial} onOpen={setViewer} onDownload={(u) => void ws.download(u)} />
        </div>
      </div>

      <HistoryPanel
        items={ws.state.history.items}
        loading={ws.state.history.loading}
        hasMore={ws.state.history.hasMore}
        loadingMore={ws.state.history.loadingMore}
        onSearch={ws.search}
        onLoadMore={ws.loadMore}
        onSelect={ws.selectHistory}
      />

      {first ? (
        <MaskEditor
          open={editorOpen}
          onOpenChange={setEditorOpen}
          imageUrl={first.previewUrl}
          width={first.width}
          height={first.height}
          initialOps={mask?.ops}
          initialColor={mask?.color}
          onSave={(saved) => void saveMask(saved)}
          downloadName={`${first.name.replace(/\.[^.]+$/, '')}-mask.png`}
          defaultBrush={IMAGE_EDIT.brush.default}
        />
      ) : null}
      <ErrorDialog message={ws.state.message} onClose={ws.dismissMessage} />
      <ViewerDialog url={viewer} onClose={() => setViewer(null)} onDownload={(u) => void ws.download(u)} />
    </div>
  );
}
