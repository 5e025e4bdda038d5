import { useEffect, useId, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ComparisonSlider } from '../../../components/ui/comparison-slider';
import { Dialog } from '../../../components/ui/dialog';
import {
  FIT_VIEW,
  FRAME_CENTRE,
  MAX_ZOOM,
  MIN_ZOOM,
  ZOOM_STEP,
  keyZoom,
  oneToOneZoom,
  panBy,
  pinch,
  wheelZoomFactor,
  zoomAbout,
  zoomAttribute,
  zoomPercent,
  type Point,
  type ZoomView,
} from '../lib/zoom';

export interface FullscreenCompareProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  before: string;
  after: string;
  afterAlt: string;
  /**
   * `<prefix>-fullscreen-dialog`, `<prefix>-fullscreen-slider`; the zoom: `<prefix>-zoom` (the zoom
   * surface, with `data-zoom`, e.g. "2.5"), `-zoom-in`, `-zoom-out`, `-zoom-reset`, `-zoom-1to1`,
   * `-zoom-level`.
   */
  testIdPrefix: string;
  /** Buttons under the comparison (My Page's viewer puts its download there). */
  actions?: ReactNode;
  /** Title instead of "Compare full screen". */
  title?: string;
}

/**
 * Fullscreen before/after overlay of a result, with a zoom (issue 28, point 11): wheel (a trackpad's
 * pinch too) and two-finger pinch from fit up to 400 % about the cursor or the fingers, a drag pans when
 * zoomed (the divider's handle still moves the divider), buttons for in, out, fit and 1:1 (one pixel of
 * the result per CSS pixel), and keys while it is open: `+`/`=`, `-`, `0`, arrows. Both images share
 * one zoom, so the divider compares the same pixels.
 */
export function FullscreenCompare({ open, onOpenChange, before, after, afterAlt, testIdPrefix, actions, title }: FullscreenCompareProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title ?? t('toolJob.result.fullscreen')} size="full" testId={`${testIdPrefix}-fullscreen-dialog`} closeLabel={t('common.close')} actions={actions}>
      {/* Mounted only while the dialog is open, and anew for another pair of images: each opening starts at fit. */}
      <ZoomableCompare key={`${before}|${after}`} before={before} after={after} afterAlt={afterAlt} testIdPrefix={testIdPrefix} />
    </Dialog>
  );
}

type Gesture = 'none' | 'divider' | 'pan' | 'pinch';

/** A client point as fractions of `rect` (0..1 inside it). */
const toFrame = (rect: DOMRect, p: Point): Point => ({ x: (p.x - rect.left) / rect.width, y: (p.y - rect.top) / rect.height });

function ZoomableCompare({ before, after, afterAlt, testIdPrefix }: Pick<FullscreenCompareProps, 'before' | 'after' | 'afterAlt' | 'testIdPrefix'>) {
  const { t } = useTranslation();
  const [view, setView] = useState<ZoomView>(FIT_VIEW);
  const [panning, setPanning] = useState(false);
  const surfaceRef = useRef<HTMLDivElement>(null);
  /** The pointers down on the surface (client CSS pixels) and what they are doing. */
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture>('none');
  const hintId = useId();
  const zoomed = view.scale > MIN_ZOOM;

  /** The view as last rendered, for the key listener (whether an arrow is ours). */
  const viewRef = useRef(view);
  useEffect(() => {
    viewRef.current = view;
  }, [view]);
  /** The surface's box: the comparison's frame. */
  const frame = () => surfaceRef.current?.getBoundingClientRect() ?? null;

  // The wheel, as a native listener: React's is passive and cannot keep the page from scrolling.
  useEffect(() => {
    const el = surfaceRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = el.getBoundingClientRect();
      if (rect.width <= 0 || rect.height <= 0) return;
      const at = toFrame(rect, { x: e.clientX, y: e.clientY });
      const factor = wheelZoomFactor(e.deltaY, e.deltaMode, e.ctrlKey);
      setView((v) => zoomAbout(v, v.scale * factor, at));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  // Keys anywhere in the open dialog (this is mounted only while it is open). A key something else has
  // used (the divider's handle takes its arrows) or typed into a field is left alone.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target;
      if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (keyZoom(viewRef.current, e.key) === null) return;
      e.preventDefault();
      setView((v) => keyZoom(v, e.key) ?? v);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const zoomBy = (factor: number) => setView((v) => zoomAbout(v, v.scale * factor, FRAME_CENTRE));
  const oneToOne = () => {
    const rect = frame();
    // The result (the right image) decides: an upscale's result has more pixels than its original.
    const img = surfaceRef.current?.querySelector<HTMLImageElement>('img[data-side="right"]');
    if (!rect || !img || img.naturalWidth <= 0) return;
    const scale = oneToOneZoom({ w: img.naturalWidth, h: img.naturalHeight }, { w: rect.width, h: rect.height });
    setView((v) => zoomAbout(v, scale, FRAME_CENTRE));
  };

  // Pointers, in the capture phase so that a pan or a pinch never reaches the slider (which would move
  // the divider); a press on the divider's handle, or any press at fit, is the slider's.
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const map = pointers.current;
    map.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (map.size >= 2) {
      gesture.current = 'pinch';
      setPanning(false);
    } else {
      const onHandle = e.target instanceof Element && e.target.closest('[role="slider"]') !== null;
      gesture.current = zoomed && !onHandle ? 'pan' : 'divider';
      if (gesture.current === 'divider') return;
      setPanning(true);
    }
    e.stopPropagation();
    // A touch is held by the element it went down on anyway; a mouse drag is kept past the frame's edge.
    if (e.pointerType === 'mouse') e.currentTarget.setPointerCapture(e.pointerId);
  };

  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const map = pointers.current;
    const last = map.get(e.pointerId);
    if (!last) return;
    const now = { x: e.clientX, y: e.clientY };
    const rect = frame();
    if (gesture.current === 'divider' || !rect || rect.width <= 0 || rect.height <= 0) {
      map.set(e.pointerId, now);
      return;
    }
    e.stopPropagation();
    if (gesture.current === 'pan') {
      setView((v) => panBy(v, (now.x - last.x) / rect.width, (now.y - last.y) / rect.height));
    } else if (gesture.current === 'pinch') {
      const [a, b] = [...map.entries()];
      if (a && b && (a[0] === e.pointerId || b[0] === e.pointerId)) {
        const local = (p: Point) => ({ x: p.x - rect.left, y: p.y - rect.top });
        const from: [Point, Point] = [local(a[1]), local(b[1])];
        const to: [Point, Point] = [local(a[0] === e.pointerId ? now : a[1]), local(b[0] === e.pointerId ? now : b[1])];
        setView((v) => pinch(v, from, to, { w: rect.width, h: rect.height }));
      }
    }
    map.set(e.pointerId, now);
  };

  const onPointerEnd = (e: PointerEvent<HTMLDivElement>) => {
    const map = pointers.current;
    if (!map.delete(e.pointerId)) return;
    if (map.size === 0) {
      gesture.current = 'none';
      setPanning(false);
    } else if (gesture.current === 'pinch' && map.size === 1) {
      // The finger left on the glass pans (when zoomed) instead of jumping the divider.
      gesture.current = 'pan';
    }
    // The release still reaches the slider, which ends its own drag.
  };

  const percent = zoomPercent(view.scale);
  const p = testIdPrefix;
  return (
    <div className="fs-zoom">
      <div
        ref={surfaceRef}
        className={`fullscreen-slider fs-zoom-surface${zoomed ? ' is-zoomed' : ''}${panning ? ' is-panning' : ''}`}
        data-testid={`${p}-zoom`}
        data-zoom={zoomAttribute(view.scale)}
        aria-describedby={hintId}
        onPointerDownCapture={onPointerDown}
        onPointerMoveCapture={onPointerMove}
        onPointerUpCapture={onPointerEnd}
        onPointerCancelCapture={onPointerEnd}
      >
        <ComparisonSlider
          leftImage={{ src: before, alt: t('toolJob.result.beforeAlt'), label: t('common.before') }}
          rightImage={{ src: after, alt: afterAlt, label: t('common.after') }}
          testId={`${p}-fullscreen-slider`}
          view={view}
        />
      </div>
      <div className="fs-zoom-bar" role="toolbar" aria-label={t('toolJob.zoom.toolbar')}>
        <button type="button" className="fs-zoom-btn" onClick={() => zoomBy(1 / ZOOM_STEP)} aria-disabled={view.scale <= MIN_ZOOM} aria-label={t('toolJob.zoom.zoomOut')} title={t('toolJob.zoom.zoomOut')} aria-keyshortcuts="-" data-testid={`${p}-zoom-out`}>
          −
        </button>
        <output className="fs-zoom-level" aria-label={t('toolJob.zoom.level')} data-testid={`${p}-zoom-level`}>
          {percent}%
        </output>
        <button type="button" className="fs-zoom-btn" onClick={() => zoomBy(ZOOM_STEP)} aria-disabled={view.scale >= MAX_ZOOM} aria-label={t('toolJob.zoom.zoomIn')} title={t('toolJob.zoom.zoomIn')} aria-keyshortcuts="+ =" data-testid={`${p}-zoom-in`}>
          +
        </button>
        <button type="button" className="fs-zoom-btn fs-zoom-text" onClick={oneToOne} aria-label={t('toolJob.zoom.oneToOneLabel')} title={t('toolJob.zoom.oneToOneLabel')} data-testid={`${p}-zoom-1to1`}>
          {t('toolJob.zoom.oneToOne')}
        </button>
        <button type="button" className="fs-zoom-btn fs-zoom-text" onClick={() => setView(FIT_VIEW)} aria-disabled={!zoomed} aria-label={t('toolJob.zoom.fitLabel')} title={t('toolJob.zoom.fitLabel')} aria-keyshortcuts="0" data-testid={`${p}-zoom-reset`}>
          {t('toolJob.zoom.fit')}
        </button>
      </div>
      <p className="fs-zoom-hint" id={hintId}>
        {t('toolJob.zoom.hint')}
      </p>
    </div>
  );
}
