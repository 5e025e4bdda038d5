import { DEFAULT_CREDITS_DISPLAY, HISTORY_CLICK_DEBOUNCE_MS, IMAGE_EDIT, imageEditCost, type SeedreamHistoryItem } from '@dewy/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { MaskEditor, type MaskColor, type MaskOp, type SavedMask } from '../../../shared/mask-editor';
import { loadImage, uploadImage, useImageDownload } from '../../../shared/tool-job';
import { fetchSeedreamConfig, fetchSeedreamHistory, fetchSeedreamStatus, postAutoPrompt, postSeedreamGenerate } from '../api/seedream';
import { runImageEdit } from '../lib/run-flow';
import { errorDialogFor, fileSizeError, fileTypeError, parseSeed, pixelError, randomSeed, scaledSize, tilesForDrop, type ErrorDialogContent } from '../lib/rules';
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

/** The image-edit tool (/image-edit, /en/image-edit), spec 002 §2–§9 on Seedream. */
export function ImageEditPage() {
  const { t } = useTranslation();
  const { user, forceSync } = useSession();
  const config = useQuery({ queryKey: ['seedream-config'], queryFn: fetchSeedreamConfig, staleTime: 60_000 });
  const configured = config.data?.configured ?? true;

  const [prompt, setPrompt] = useState('');
  const [autoPrompt, setAutoPrompt] = useState(false);
  const [tiles, setTiles] = useState<(Tile | null)[]>(EMPTY_TILES);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settings, setSettings] = useState<EditSettings>(defaultSettings);
  const [mask, setMask] = useState<MaskState | null>(null);
  const [editorOpen, setEditorOpen] = useState(false);
  const [running, setRunning] = useState(false);
  const [results, setResults] = useState<{ urls: string[]; partial: boolean }>({ urls: [], partial: false });
  const [dialog, setDialog] = useState<ErrorDialogContent | null>(null);
  const [viewer, setViewer] = useState<string | null>(null);
  const tilesRef = useRef(tiles);
  tilesRef.current = tiles;
  const { download } = useImageDownload({ failedKey: 'imageEdit.error.download' });

  // History: 9 first, then 5 per Load more; search by prompt (002 §7, §9).
  const [history, setHistory] = useState<{ items: SeedreamHistoryItem[]; nextOffset: number | null; loading: boolean; loadingMore: boolean; q: string }>({
    items: [],
    nextOffset: 0,
    loading: true,
    loadingMore: false,
    q: '',
  });
  const loadHistory = useCallback(
    async (q: string) => {
      setHistory((h) => ({ ...h, loading: true, q }));
      try {
        const r = await fetchSeedreamHistory({ limit: IMAGE_EDIT.historyPage.first, offset: 0, q: q || undefined });
        setHistory({ items: r.items, nextOffset: r.pagination.hasMore ? r.pagination.nextOffset : null, loading: false, loadingMore: false, q });
      } catch (err) {
        console.warn('[image-edit] history failed', err);
        setHistory((h) => ({ ...h, loading: false }));
        notify.error(t('toolJob.error.historyLoad'));
      }
    },
    [t],
  );
  useEffect(() => {
    if (user) void loadHistory('');
  }, [user, loadHistory]);
  const loadMore = async () => {
    if (history.nextOffset === null) return;
    setHistory((h) => ({ ...h, loadingMore: true }));
    try {
      const r = await fetchSeedreamHistory({ limit: IMAGE_EDIT.historyPage.more, offset: history.nextOffset, q: history.q || undefined });
      setHistory((h) => ({ ...h, items: [...h.items, ...r.items.filter((i) => !h.items.some((x) => x.id === i.id))], nextOffset: r.pagination.hasMore ? r.pagination.nextOffset : null, loadingMore: false }));
    } catch (err) {
      console.warn('[image-edit] history page failed', err);
      setHistory((h) => ({ ...h, loadingMore: false }));
      notify.error(t('toolJob.error.historyLoad'));
    }
  };
  const clickTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(clickTimer.current), []);
  const selectHistory = (item: SeedreamHistoryItem) => {
    window.clearTimeout(clickTimer.current);
    clickTimer.current = window.setTimeout(() => {
      if (running) return;
      setResults({ urls: item.image_urls.slice(0, IMAGE_EDIT.maxDisplayed), partial: false });
      if (item.prompt) setPrompt(item.prompt);
    }, HISTORY_CLICK_DEBOUNCE_MS);
  };

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
      notify.error(t(bad.key, bad.values));
      return;
    }
    const previewUrl = URL.createObjectURL(file);
    let img: HTMLImageElement;
    try {
      img = await loadImage(previewUrl);
    } catch {
      release(previewUrl);
      setDialog({ titleKey: 'imageEdit.dialog.errorTitle', messageKey: 'imageEdit.error.unreadable' });
      return;
    }
    const small = pixelError(img.naturalWidth, img.naturalHeight);
    if (small) {
      release(previewUrl);
      notify.error(t(small.key, small.values));
      return;
    }
    if (index === 0) dropMask();
    setTiles((prev) => {
      const next = [...prev];
      release(next[index]?.previewUrl);
      next[index] = { name: file.name, previewUrl, width: img.naturalWidth, height: img.naturalHeight, url: null, uploading: true };
      return next;
    });
    try {
      const res = await uploadImage(file, file.name, 'seedream-ref');
      setTiles((prev) => prev.map((x, i) => (i === index && x?.previewUrl === previewUrl ? { ...x, url: res.imageUrl, uploading: false } : x)));
    } catch (err) {
      console.warn('[image-edit] upload failed', err);
      setTiles((prev) => prev.map((x, i) => (i === index && x?.previewUrl === previewUrl ? null : x)));
      release(previewUrl);
      const code = err instanceof ApiError ? err.code : undefined;
      setDialog(errorDialogFor(code === 'NETWORK' ? 'PRESIGN_FAILED' : code, err instanceof Error ? err.message : undefined));
    }
  };
  const onFiles = (index: number, files: File[]) => {
    const occupied = tilesRef.current.map((x) => x !== null);
    // The target tile takes the first file even when it holds one (a replace); the rest fill free tiles.
    const targets = [index, ...tilesForDrop(occupied.map((o, i) => o || i === index), index, files.length - 1)];
    if (files.length > targets.length) notify.error(t('imageEdit.error.maxImages', { max: IMAGE_EDIT.maxImages }));
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
    try {
      const res = await uploadImage(saved.blob, `${first.name.replace(/\.[^.]+$/, '')}-mask.png`, 'seedream-ref');
      setMask((m) => (m && m.tintUrl === tint ? { ...m, url: res.imageUrl, uploading: false } : m));
    } catch (err) {
      console.warn('[image-edit] mask upload failed', err);
      setMask((m) => (m && m.tintUrl === tint ? { ...m, uploading: false } : m));
      setDialog(errorDialogFor(err instanceof ApiError ? err.code : undefined, err instanceof Error ? err.message : undefined));
    }
  };

  const effective = scaledSize(settings.width, settings.height, settings.scale);
  const picked = tiles.filter((x): x is Tile => x !== null);
  const uploading = picked.some((x) => x.uploading) || (mask?.uploading ?? false);
  const cost = imageEditCost(settings.numImages) + (autoPrompt ? IMAGE_EDIT.autoPromptCost : 0);
  const balance = user?.credits ?? DEFAULT_CREDITS_DISPLAY;
  const canRun = configured && prompt.trim().length > 0 && picked.length > 0 && !uploading && !running;

  const reset = () => {
    for (const tile of tiles) release(tile?.previewUrl);
    dropMask();
    setTiles(EMPTY_TILES);
    setPrompt('');
    setAutoPrompt(false);
    setSettings(defaultSettings());
    setResults({ urls: [], partial: false });
  };

  const run = async () => {
    // 002 §4: only with a prompt and no run in progress.
    if (running) return;
    if (!prompt.trim()) {
      notify.error(t('imageEdit.error.promptRequired'));
      return;
    }
    if (!configured) {
      setDialog(errorDialogFor('NOT_CONFIGURED', undefined));
      return;
    }
    const urls = tilesRef.current.filter((x): x is Tile => x !== null).map((x) => x.url);
    if (urls.length === 0) {
      notify.error(t('imageEdit.error.imageRequired'));
      return;
    }
    if (urls.some((u) => u === null) || mask?.uploading) return;
    const seed = parseSeed(settings.seed);
    if (seed === null) {
      notify.error(t('imageEdit.error.seed', { min: IMAGE_EDIT.seed.min, max: IMAGE_EDIT.seed.max }));
      return;
    }
    if (balance < cost) {
      setDialog(errorDialogFor('INSUFFICIENT_CREDITS', undefined));
      return;
    }
    setRunning(true);
    setResults({ urls: [], partial: false });
    const images = urls as string[];
    try {
      const outcome = await runImageEdit(
        {
          autoPrompt: postAutoPrompt,
          generate: (p) =>
            postSeedreamGenerate({
              prompt: p,
              images,
              num_images: settings.numImages,
              max_images: settings.maxImages,
              size: `${effective.width}x${effective.height}`,
              seed,
              auto_prompt_used: autoPrompt,
              mask: mask?.url ?? null,
              mask_color: mask?.color ?? 'blue',
            }),
          status: fetchSeedreamStatus,
          latestHistory: async () => (await fetchSeedreamHistory({ limit: IMAGE_EDIT.historyPage.first, offset: 0 })).items,
          sleep,
          now: () => Date.now(),
          httpStatusOf: (err) => (err instanceof ApiError ? err.status : undefined),
        },
        { prompt: prompt.trim(), autoPrompt, images },
      );
      if (outcome.kind === 'completed') {
        setResults({ urls: outcome.urls, partial: outcome.partial });
        if (autoPrompt) setPrompt(outcome.prompt);
      } else if (outcome.kind === 'timeout') {
        setDialog(errorDialogFor('TIMEOUT', undefined));
      } else {
        setDialog(errorDialogFor(outcome.code, outcome.message));
      }
    } finally {
      setRunning(false);
      void forceSync();
      void loadHistory(history.q);
    }
  };

  // Ctrl+Enter runs (002 §2).
  const runRef = useRef(run);
  runRef.current = run;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
        e.preventDefault();
        void runRef.current();
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
                setDialog({ titleKey: 'imageEdit.dialog.errorTitle', messageKey: 'imageEdit.error.firstSize' });
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
          <ResultsPanel loadingCount={running ? settings.numImages : 0} urls={results.urls} partial={results.partial} onOpen={setViewer} onDownload={(u) => void download(u)} />
        </div>
      </div>

      <HistoryPanel
        items={history.items}
        loading={history.loading && Boolean(user)}
        hasMore={history.nextOffset !== null}
        loadingMore={history.loadingMore}
        onSearch={(q) => void loadHistory(q)}
        onLoadMore={() => void loadMore()}
        onSelect={selectHistory}
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
      <ErrorDialog content={dialog} onClose={() => setDialog(null)} />
      <ViewerDialog url={viewer} onClose={() => setViewer(null)} onDownload={(u) => void download(u)} />
    </div>
  );
}
