import { FACE_EDIT } from '@dewy/contracts';
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { RangeSlider } from '../../../components/ui/range-slider';
import { saveBlob } from '../../../lib/save-blob';
import {
  MASK_OFF,
  MASK_ON,
  applyStrokeSegment,
  countPainted,
  createMask,
  maskToRgba,
  rectPixels,
  renderOps,
  unionRect,
  type Bitmask,
  type MaskOp,
  type PixelRect,
  type Rgba,
} from '../lib/mask-raster';
import { canRedo, canUndo, pushOp, redo, undo, undoShortcut, undoState, type UndoState } from '../lib/undo-stack';
import { clampView, fitView, imageToScreen, panBy, pinchView, screenToImage, wheelZoomFactor, zoomAt, zoomLimits, type Point, type Size, type View } from '../lib/view';
import './mask-editor.css';

/** The mask editor's constants (001 §9): brush 5–150 px, overlay opacity 0.35. */
export const MASK_EDITOR = {
  brush: FACE_EDIT.brush,
  overlayOpacity: FACE_EDIT.overlayOpacity,
  /** Zoom step of the +/− buttons and keys. */
  zoomStep: 1.25,
  /** Screen distance of one arrow-key pan (CSS px). */
  panStep: 40,
} as const;

export type MaskTool = 'draw' | 'rectangle' | 'erase' | 'pan';
export type MaskColor = 'blue' | 'red';

const TOOLS: readonly MaskTool[] = ['draw', 'rectangle', 'erase', 'pan'];
const COLORS: Record<MaskColor, Rgba> = { blue: [37, 99, 235, 255], red: [239, 68, 68, 255] };
const CLEAR_PIXEL: Rgba = [0, 0, 0, 0];

/** What Save hands back: the mask PNG at the photo's exact size, and what painted it. */
export interface SavedMask {
  /** PNG, white = change, black elsewhere, `width` × `height`. */
  blob: Blob;
  /** PNG of the same size in the chosen overlay colour where painted, transparent elsewhere (to show the mask over the photo). */
  tint: Blob;
  /** The overlay colour the customer chose. */
  color: MaskColor;
  /** The operations (reopen the editor with them as `initialOps` to keep editing). */
  ops: MaskOp[];
  paintedPixels: number;
  /** Painted share of the photo, 0..1. */
  coverage: number;
  width: number;
  height: number;
}

export interface MaskEditorProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The photo to paint on (any URL an image element can show). */
  imageUrl: string;
  /** The photo's exact pixel size: the saved mask's size. */
  width: number;
  height: number;
  /** A mask saved earlier: the editor opens with it, and its operations can be undone. */
  initialOps?: readonly MaskOp[];
  onSave: (mask: SavedMask) => void;
  /** Overlay colour to start with (the one of a mask saved earlier); blue by default. */
  initialColor?: MaskColor;
  /** File name of "Download mask". */
  downloadName?: string;
  /** Brush size to start with (px, within MASK_EDITOR.brush); default the face-edit one (001 §9). Image edit: 80 (002 §9). */
  defaultBrush?: number;
}

/**
 * The mask editor (001 §2/§9), shared by the tools that repaint a region (face edit, image edit): a
 * dialog filling 90 % of the window where the customer paints the area to change over the photo —
 * brush, rectangle and eraser, blue or red overlay at 0.35 opacity, brush 5–150 px (photo pixels), undo
 * and redo (buttons, Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y), Clear, Save and Download mask. Pointer Events, so
 * mouse, pen and touch paint alike; wheel and pinch zoom, and pan with two fingers, the Move tool,
 * Space+drag, the middle button or the arrow keys. Saves a PNG of the photo's exact size.
 */
export function MaskEditor({ open, onOpenChange, ...rest }: MaskEditorProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('maskEditor.title')}
      description={t('maskEditor.help')}
      size="full"
      className="mask-editor-dialog"
      testId="mask-editor"
      closeLabel={t('maskEditor.cancel')}
      closeOnOutsideClick={false}
    >
      {open ? <MaskEditorBody key={`${rest.imageUrl}|${rest.width}x${rest.height}`} {...rest} onClose={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

type Gesture =
  | { type: 'none' }
  | { type: 'stroke'; id: number; points: Point[]; erase: boolean; size: number; touched: PixelRect | null }
  | { type: 'rect'; id: number; from: Point }
  | { type: 'pan'; id: number; start: Point; view0: View }
  | { type: 'pinch'; ids: [number, number]; from: [Point, Point]; view0: View }
  /** A pinch ended with a finger still down: nothing until every finger is up. */
  | { type: 'wait' };

type BodyProps = Omit<MaskEditorProps, 'open' | 'onOpenChange'> & { onClose: () => void };

const isTypingTarget = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'BUTTON' || el.getAttribute('role') === 'slider');

function MaskEditorBody({ imageUrl, width, height, initialOps, initialColor = 'blue', onSave, downloadName = 'mask.png', defaultBrush, onClose }: BodyProps) {
  const { t } = useTranslation();
  const helpId = useId();
  const image = useMemo<Size>(() => ({ width, height }), [width, height]);

  const [tool, setTool] = useState<MaskTool>('draw');
  const [color, setColor] = useState<MaskColor>(initialColor);
  const [brush, setBrush] = useState<number>(Math.min(MASK_EDITOR.brush.max, Math.max(MASK_EDITOR.brush.min, defaultBrush ?? MASK_EDITOR.brush.default)));
  const [history, setHistory] = useState<UndoState<MaskOp>>(() => undoState(initialOps ? [...initialOps] : []));
  const [viewport, setViewport] = useState<Size | null>(null);
  const [view, setView] = useState<View | null>(null);
  const [painted, setPainted] = useState(0);
  const [rectPreview, setRectPreview] = useState<{ from: Point; to: Point } | null>(null);
  const [spaceHeld, setSpaceHeld] = useState(false);
  const [busy, setBusy] = useState(false);

  const viewportRef = useRef<HTMLDivElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const [mask] = useState<Bitmask>(() => createMask(width, height));
  const maskRef = useRef(mask);
  const cursorRef = useRef<HTMLDivElement>(null);
  const historyRef = useRef(history);
  const renderedRef = useRef<readonly MaskOp[] | null>(null);
  const viewRef = useRef<View | null>(null);
  const viewportSizeRef = useRef<Size | null>(null);
  const userZoomed = useRef(false);
  const gesture = useRef<Gesture>({ type: 'none' });
  const pointers = useRef(new Map<number, Point>());

  const limits = useMemo(() => (viewport ? zoomLimits(image, viewport) : { min: 0.01, max: 64 }), [image, viewport]);

  /** Set the view (always clamped so the photo stays in reach). */
  const applyView = useCallback(
    (next: View) => {
      const vp = viewportSizeRef.current;
      const v = vp ? clampView(next, image, vp) : next;
      viewRef.current = v;
      setView(v);
    },
    [image],
  );

  /** Record a new history state (committed stroke, undo, redo, clear). */
  const applyHistory = useCallback((next: UndoState<MaskOp>) => {
    historyRef.current = next;
    setHistory(next);
  }, []);

  const drawOverlay = useCallback(
    (box: PixelRect | null) => {
      const ctx = overlayRef.current?.getContext('2d');
      if (!ctx || !box) return;
      const rgba = maskToRgba(maskRef.current, COLORS[color], CLEAR_PIXEL, box);
      ctx.putImageData(new ImageData(rgba, box.width, box.height), box.x, box.y);
    },
    [color],
  );
  const fullBox = useMemo<PixelRect>(() => ({ x: 0, y: 0, width, height }), [width, height]);

  // The mask follows the history: a committed stroke is already painted (renderedRef), anything else
  // (undo, redo, clear, the first render) repaints it from the operations.
  useLayoutEffect(() => {
    if (renderedRef.current !== history.done) {
      renderOps(maskRef.current, history.done);
      renderedRef.current = history.done;
      drawOverlay(fullBox);
    }
    setPainted(countPainted(maskRef.current));
  }, [history, drawOverlay, fullBox]);

  // A colour change repaints the overlay in the new colour.
  useLayoutEffect(() => {
    drawOverlay(fullBox);
  }, [drawOverlay, fullBox]);

  // The viewport's size: fit the photo until the customer zooms, then only keep it in reach.
  useLayoutEffect(() => {
    const el = viewportRef.current;
    if (!el) return;
    const measure = () => {
      const size = { width: el.clientWidth, height: el.clientHeight };
      if (size.width === 0 || size.height === 0) return;
      viewportSizeRef.current = size;
      setViewport(size);
      const current = viewRef.current;
      applyView(!current || !userZoomed.current ? fitView(image, size) : current);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [image, applyView]);

  // Wheel zoom about the pointer (a native listener: React's wheel listener cannot prevent scrolling).
  useEffect(() => {
    const el = viewportRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const current = viewRef.current;
      const vp = viewportSizeRef.current;
      if (!current || !vp) return;
      const r = el.getBoundingClientRect();
      userZoomed.current = true;
      applyView(zoomAt(current, wheelZoomFactor(e.deltaY, e.deltaMode), { x: e.clientX - r.left, y: e.clientY - r.top }, zoomLimits(image, vp)));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [image, applyView]);

  const zoomBy = useCallback(
    (factor: number) => {
      const current = viewRef.current;
      const vp = viewportSizeRef.current;
      if (!current || !vp) return;
      userZoomed.current = true;
      applyView(zoomAt(current, factor, { x: vp.width / 2, y: vp.height / 2 }, zoomLimits(image, vp)));
    },
    [image, applyView],
  );
  const fit = useCallback(() => {
    const vp = viewportSizeRef.current;
    if (!vp) return;
    userZoomed.current = false;
    applyView(fitView(image, vp));
  }, [image, applyView]);

  const doUndo = useCallback(() => applyHistory(undo(historyRef.current)), [applyHistory]);
  const doRedo = useCallback(() => applyHistory(redo(historyRef.current)), [applyHistory]);
  const clear = useCallback(() => applyHistory(pushOp(historyRef.current, { kind: 'clear' })), [applyHistory]);

  /** The brush outline follows a mouse or pen without re-rendering the editor; hidden for touch. */
  const moveCursor = (p: Point | null) => {
    const el = cursorRef.current;
    if (!el) return;
    if (p) el.style.transform = `translate(${p.x}px, ${p.y}px)`;
    el.dataset.visible = p ? 'true' : 'false';
  };

  const local = (e: { clientX: number; clientY: number }): Point => {
    const r = viewportRef.current?.getBoundingClientRect();
    return { x: e.clientX - (r?.left ?? 0), y: e.clientY - (r?.top ?? 0) };
  };

  /** Drop a stroke that a second finger turned into a pinch: repaint from the committed operations. */
  const abortGesture = () => {
    const g = gesture.current;
    if (g.type === 'stroke' && g.touched) {
      renderOps(maskRef.current, historyRef.current.done);
      renderedRef.current = historyRef.current.done;
      drawOverlay(fullBox);
    }
    setRectPreview(null);
  };

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    const v = viewRef.current;
    if (!v) return;
    if (e.pointerType === 'mouse' && e.button !== 0 && e.button !== 1) return;
    e.preventDefault();
    viewportRef.current?.focus({ preventScroll: true });
    e.currentTarget.setPointerCapture(e.pointerId);
    const p = local(e);
    pointers.current.set(e.pointerId, p);
    const g = gesture.current;

    if (pointers.current.size >= 2) {
      if (g.type === 'pinch') return;
      abortGesture();
      const [a, b] = [...pointers.current.entries()];
      if (!a || !b) return;
      userZoomed.current = true;
      gesture.current = { type: 'pinch', ids: [a[0], b[0]], from: [a[1], b[1]], view0: v };
      return;
    }
    if (g.type === 'wait') return;
    if (tool === 'pan' || spaceHeld || e.button === 1) {
      gesture.current = { type: 'pan', id: e.pointerId, start: p, view0: v };
      return;
    }
    const at = screenToImage(v, p);
    if (tool === 'rectangle') {
      gesture.current = { type: 'rect', id: e.pointerId, from: at };
      setRectPreview({ from: at, to: at });
      return;
    }
    const stroke = { type: 'stroke' as const, id: e.pointerId, points: [at], erase: tool === 'erase', size: brush, touched: null as PixelRect | null };
    stroke.touched = applyStrokeSegment(maskRef.current, stroke, null, at);
    drawOverlay(stroke.touched);
    gesture.current = stroke;
  };

  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const p = local(e);
    moveCursor(e.pointerType === 'touch' ? null : p);
    if (!pointers.current.has(e.pointerId)) return;
    pointers.current.set(e.pointerId, p);
    const g = gesture.current;
    const v = viewRef.current;
    if (!v) return;
    if (g.type === 'stroke' && g.id === e.pointerId) {
      const events = e.nativeEvent.getCoalescedEvents?.() ?? [];
      const samples = events.length > 0 ? events.map(local) : [p];
      let box: PixelRect | null = null;
      for (const s of samples) {
        const at = screenToImage(v, s);
        const last = g.points[g.points.length - 1] ?? at;
        // Sub-pixel moves add nothing to the mask; keep the stroke's point list short.
        if (Math.hypot(at.x - last.x, at.y - last.y) < 0.5) continue;
        box = unionRect(box, applyStrokeSegment(maskRef.current, g, last, at));
        g.points.push(at);
      }
      g.touched = unionRect(g.touched, box);
      drawOverlay(box);
    } else if (g.type === 'rect' && g.id === e.pointerId) {
      setRectPreview({ from: g.from, to: screenToImage(v, p) });
    } else if (g.type === 'pan' && g.id === e.pointerId) {
      userZoomed.current = true;
      applyView(panBy(g.view0, p.x - g.start.x, p.y - g.start.y));
    } else if (g.type === 'pinch') {
      const a = pointers.current.get(g.ids[0]);
      const b = pointers.current.get(g.ids[1]);
      if (a && b) applyView(pinchView(g.view0, g.from, [a, b], limits));
    }
  };

  const endPointer = (e: ReactPointerEvent<HTMLDivElement>, cancelled: boolean) => {
    if (!pointers.current.delete(e.pointerId)) return;
    const g = gesture.current;
    const v = viewRef.current;
    if (g.type === 'stroke' && g.id === e.pointerId) {
      if (cancelled) {
        abortGesture();
      } else {
        const op: MaskOp = { kind: 'stroke', erase: g.erase, size: g.size, points: g.points };
        const next = pushOp(historyRef.current, op);
        renderedRef.current = next.done;
        applyHistory(next);
      }
      gesture.current = { type: 'none' };
    } else if (g.type === 'rect' && g.id === e.pointerId) {
      setRectPreview(null);
      const to = v ? screenToImage(v, local(e)) : g.from;
      if (!cancelled && rectPixels(image, g.from, to)) applyHistory(pushOp(historyRef.current, { kind: 'rect', from: g.from, to }));
      gesture.current = { type: 'none' };
    } else if (g.type === 'pan' && g.id === e.pointerId) {
      gesture.current = { type: 'none' };
    } else if (g.type === 'pinch') {
      gesture.current = pointers.current.size > 0 ? { type: 'wait' } : { type: 'none' };
    }
    if (gesture.current.type === 'wait' && pointers.current.size === 0) gesture.current = { type: 'none' };
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const shortcut = undoShortcut(e);
    if (shortcut) {
      e.preventDefault();
      if (shortcut === 'undo') doUndo();
      else doRedo();
      return;
    }
    if (e.key === ' ' && !isTypingTarget(e.target)) {
      e.preventDefault();
      setSpaceHeld(true);
      return;
    }
    if (e.target !== viewportRef.current || e.ctrlKey || e.metaKey || e.altKey) return;
    const pan: Record<string, [number, number]> = {
      ArrowLeft: [MASK_EDITOR.panStep, 0],
      ArrowRight: [-MASK_EDITOR.panStep, 0],
      ArrowUp: [0, MASK_EDITOR.panStep],
      ArrowDown: [0, -MASK_EDITOR.panStep],
    };
    const step = pan[e.key];
    if (step && viewRef.current) {
      e.preventDefault();
      userZoomed.current = true;
      applyView(panBy(viewRef.current, step[0], step[1]));
    } else if (e.key === '+' || e.key === '=') {
      e.preventDefault();
      zoomBy(MASK_EDITOR.zoomStep);
    } else if (e.key === '-') {
      e.preventDefault();
      zoomBy(1 / MASK_EDITOR.zoomStep);
    } else if (e.key === '0') {
      e.preventDefault();
      fit();
    }
  };

  const onKeyUp = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === ' ') setSpaceHeld(false);
  };

  /** The mask as a PNG at the photo's exact size: white = change, black elsewhere (or `on`/`off`). */
  const encode = async (on: Rgba = MASK_ON, off: Rgba = MASK_OFF): Promise<Blob> => {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('canvas unavailable');
    ctx.putImageData(new ImageData(maskToRgba(maskRef.current, on, off), width, height), 0, 0);
    return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encode failed'))), 'image/png'));
  };

  const save = async () => {
    setBusy(true);
    try {
      const [blob, tint] = await Promise.all([encode(), encode(COLORS[color], CLEAR_PIXEL)]);
      const pixels = countPainted(maskRef.current);
      onSave({ blob, tint, color, ops: [...historyRef.current.done], paintedPixels: pixels, coverage: pixels / (width * height), width, height });
    } finally {
      setBusy(false);
    }
  };

  const download = async () => {
    setBusy(true);
    try {
      saveBlob(await encode(), downloadName);
    } finally {
      setBusy(false);
    }
  };

  const coverage = painted / (width * height);
  const percent = painted === 0 ? '0' : coverage < 0.001 ? '<0.1' : (coverage * 100).toFixed(1);
  const brushTool = tool === 'draw' || tool === 'erase';
  const panning = tool === 'pan' || spaceHeld;
  const rect = rectPreview && view ? { a: imageToScreen(view, rectPreview.from), b: imageToScreen(view, rectPreview.to) } : null;

  return (
    <div className="mask-editor" onKeyDown={onKeyDown} onKeyUp={onKeyUp} data-testid="mask-editor-body">
      <div className="mask-toolbar">
        <div className="mask-group" role="group" aria-label={t('maskEditor.toolLabel')}>
          {TOOLS.map((name) => (
            <button
              key={name}
              type="button"
              className={`mask-btn ${tool === name ? 'is-active' : ''}`}
              aria-pressed={tool === name}
              onClick={() => setTool(name)}
              title={t(`maskEditor.tool.${name}`)}
              data-testid={`mask-tool-${name}`}
            >
              <ToolIcon name={name} />
              <span className="mask-btn-label">{t(`maskEditor.tool.${name}`)}</span>
            </button>
          ))}
        </div>
        <div className="mask-group" role="group" aria-label={t('maskEditor.historyLabel')}>
          <button type="button" className="mask-btn" onClick={doUndo} disabled={!canUndo(history)} aria-keyshortcuts="Control+Z" title={`${t('maskEditor.undo')} (Ctrl+Z)`} data-testid="mask-undo">
            <ToolIcon name="undo" />
            <span className="visually-hidden">{t('maskEditor.undo')}</span>
          </button>
          <button
            type="button"
            className="mask-btn"
            onClick={doRedo}
            disabled={!canRedo(history)}
            aria-keyshortcuts="Control+Shift+Z Control+Y"
            title={`${t('maskEditor.redo')} (Ctrl+Shift+Z)`}
            data-testid="mask-redo"
          >
            <ToolIcon name="redo" />
            <span className="visually-hidden">{t('maskEditor.redo')}</span>
          </button>
        </div>
        <div className="mask-group" role="group" aria-label={t('maskEditor.colorLabel')}>
          {(Object.keys(COLORS) as MaskColor[]).map((c) => (
            <button
              key={c}
              type="button"
              className={`mask-swatch mask-swatch-${c} ${color === c ? 'is-active' : ''}`}
              aria-pressed={color === c}
              onClick={() => setColor(c)}
              title={t(`maskEditor.color.${c}`)}
              data-testid={`mask-color-${c}`}
            >
              <span className="visually-hidden">{t(`maskEditor.color.${c}`)}</span>
            </button>
          ))}
        </div>
        <div className="mask-brush">
          <RangeSlider
            label={t('maskEditor.brushSize')}
            value={brush}
            min={MASK_EDITOR.brush.min}
            max={MASK_EDITOR.brush.max}
            step={1}
            display={`${brush}px`}
            valueText={`${brush}px`}
            disabled={!brushTool}
            onChange={setBrush}
            testId="mask-brush"
          />
        </div>
      </div>

      <div
        ref={viewportRef}
        className={`mask-viewport ${panning ? 'is-panning' : ''} ${brushTool && !panning ? 'is-brush' : ''} ${tool === 'rectangle' && !panning ? 'is-rect' : ''}`}
        tabIndex={0}
        role="application"
        aria-label={t('maskEditor.canvasLabel')}
        aria-describedby={helpId}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={(e) => endPointer(e, false)}
        onPointerCancel={(e) => endPointer(e, true)}
        onPointerLeave={() => moveCursor(null)}
        onContextMenu={(e) => e.preventDefault()}
        data-testid="mask-editor-viewport"
        data-scale={view?.scale}
        data-x={view?.x}
        data-y={view?.y}
      >
        <p id={helpId} className="visually-hidden">
          {t('maskEditor.keyboardHelp')}
        </p>
        <div
          className="mask-world"
          style={{
            width,
            height,
            transform: view ? `translate(${view.x}px, ${view.y}px) scale(${view.scale})` : undefined,
            visibility: view ? 'visible' : 'hidden',
          }}
        >
          <img src={imageUrl} alt="" width={width} height={height} draggable={false} />
          <canvas
            ref={overlayRef}
            width={width}
            height={height}
            className={view && view.scale > 1.5 ? 'is-pixelated' : undefined}
            style={{ opacity: MASK_EDITOR.overlayOpacity }}
            data-testid="mask-editor-overlay"
          />
        </div>
        {rect ? (
          <div
            className={`mask-rect-preview mask-rect-${color}`}
            style={{ left: Math.min(rect.a.x, rect.b.x), top: Math.min(rect.a.y, rect.b.y), width: Math.abs(rect.b.x - rect.a.x), height: Math.abs(rect.b.y - rect.a.y) }}
          />
        ) : null}
        {view && brushTool && !panning ? (
          <div
            ref={cursorRef}
            className={`mask-cursor ${tool === 'erase' ? 'is-erase' : ''}`}
            style={{ width: brush * view.scale, height: brush * view.scale, marginLeft: (-brush * view.scale) / 2, marginTop: (-brush * view.scale) / 2 }}
            data-visible="false"
            aria-hidden="true"
          />
        ) : null}
        <div className="mask-zoom" role="group" aria-label={t('maskEditor.zoomLabel')} onPointerDown={(e) => e.stopPropagation()}>
          <button type="button" className="mask-btn mask-btn-sm" onClick={() => zoomBy(1 / MASK_EDITOR.zoomStep)} disabled={!view || view.scale <= limits.min + 1e-9} title={t('maskEditor.zoomOut')} data-testid="mask-zoom-out">
            <ToolIcon name="zoomOut" />
            <span className="visually-hidden">{t('maskEditor.zoomOut')}</span>
          </button>
          <button type="button" className="mask-zoom-value" onClick={fit} title={t('maskEditor.fit')} data-testid="mask-zoom-fit">
            <span aria-hidden="true">{view ? `${Math.round(view.scale * 100)}%` : ''}</span>
            <span className="visually-hidden">{t('maskEditor.fit')}</span>
          </button>
          <button type="button" className="mask-btn mask-btn-sm" onClick={() => zoomBy(MASK_EDITOR.zoomStep)} disabled={!view || view.scale >= limits.max - 1e-9} title={t('maskEditor.zoomIn')} data-testid="mask-zoom-in">
            <ToolIcon name="zoomIn" />
            <span className="visually-hidden">{t('maskEditor.zoomIn')}</span>
          </button>
        </div>
      </div>

      <div className="mask-footer">
        <p className="mask-status" role="status" data-testid="mask-painted" data-painted={painted}>
          {painted === 0 ? t('maskEditor.nothingPainted') : t('maskEditor.painted', { percent })}
        </p>
        <div className="mask-actions">
          <button type="button" className="btn btn-ghost btn-sm" onClick={clear} disabled={painted === 0} data-testid="mask-clear">
            {t('maskEditor.clear')}
          </button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void download()} disabled={busy} data-testid="mask-download">
            {t('maskEditor.download')}
          </button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={onClose} data-testid="mask-cancel">
            {t('maskEditor.cancel')}
          </button>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => void save()} disabled={busy} aria-busy={busy} data-testid="mask-save">
            {t('maskEditor.save')}
          </button>
        </div>
      </div>
    </div>
  );
}

const ICONS: Record<MaskTool | 'undo' | 'redo' | 'zoomIn' | 'zoomOut', string> = {
  draw: 'M4 20c3 0 5-1.5 5-4a3 3 0 0 0-3-3c-2 0-3 1.5-3 3 0 1.5-1 3-1 4zM9.5 13.5L20 3l1 1-10.5 10.5',
  rectangle: 'M4 6h16v12H4z',
  erase: 'M15.5 4.5l4 4L10 18H6l-2-2zM8.5 10l5 5M4 21h16',
  pan: 'M12 3v18M3 12h18M12 3l-2.5 2.5M12 3l2.5 2.5M12 21l-2.5-2.5M12 21l2.5-2.5M3 12l2.5-2.5M3 12l2.5 2.5M21 12l-2.5-2.5M21 12l-2.5 2.5',
  undo: 'M9 14L4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11',
  redo: 'M15 14l5-5-5-5M20 9H9.5a5.5 5.5 0 0 0 0 11H13',
  zoomIn: 'M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM20 20l-4.8-4.8M10.5 7.5v6M7.5 10.5h6',
  zoomOut: 'M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM20 20l-4.8-4.8M7.5 10.5h6',
};

function ToolIcon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round">
      <path d={ICONS[name]} />
    </svg>
  );
}
