/**
 * The zoom of the full-screen comparison (issue 28, point 11): pure maths, no DOM.
 *
 * Coordinates: the frame is the comparison's box, and the image fills it at "fit" (zoom 1). A view
 * scales the image about the frame's top-left corner and then moves it, so that the image point at
 * frame fraction `u` (0..1 across the frame) is drawn at frame fraction `x + scale * u` (the same along
 * y). CSS draws this as `transform-origin: 0 0; transform: translate(x*100%, y*100%) scale(scale)` on
 * an element of the frame's size. Offsets are fractions of the frame, not pixels, so a view stays right
 * when the window (and the frame) is resized.
 */

/** How far the image is zoomed and moved: `scale` (1 = fit … MAX_ZOOM) and its top-left corner `x`, `y` as fractions of the frame's width and height (0, 0 at fit; between 1 - scale and 0 when zoomed). */
export interface ZoomView {
  scale: number;
  x: number;
  y: number;
}

/** A point: in frame fractions (0..1) or in CSS pixels, as each function says. */
export interface Point {
  x: number;
  y: number;
}

/** A width and height in CSS pixels (a frame) or in image pixels (an image's natural size). */
export interface Size {
  w: number;
  h: number;
}

/** Fit: the whole image in the frame. */
export const MIN_ZOOM = 1;
/** 400 % of fit. */
export const MAX_ZOOM = 4;
/** One step of the buttons and the `+` / `-` keys (a factor). */
export const ZOOM_STEP = 1.25;
/** One press of an arrow key moves the view by this fraction of the frame. */
export const PAN_STEP = 0.1;
/** The view at fit. */
export const FIT_VIEW: ZoomView = Object.freeze({ scale: 1, x: 0, y: 0 });
/** The frame's centre, in frame fractions (where the buttons and keys zoom about). */
export const FRAME_CENTRE: Point = Object.freeze({ x: 0.5, y: 0.5 });

/** `scale` (a factor of fit) kept within MIN_ZOOM..MAX_ZOOM; a value that is not a finite number gives fit (1). */
export function clampZoom(scale: number): number {
  if (!Number.isFinite(scale)) return MIN_ZOOM;
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, scale));
}

/**
 * `view` with its zoom clamped (clampZoom) and its offsets clamped so that the image covers the whole
 * frame: `x` and `y` (frame fractions) within 1 - scale..0, so no edge of the image comes inside the
 * frame. At fit that is 0, 0.
 */
export function clampPan(view: ZoomView): ZoomView {
  const scale = clampZoom(view.scale);
  const within = (v: number) => (Number.isFinite(v) ? Math.min(0, Math.max(1 - scale, v)) : 0);
  return { scale, x: within(view.x), y: within(view.y) };
}

/**
 * `view` zoomed to `nextScale` (a factor of fit, clamped) about `point` (frame fractions, e.g. the
 * cursor): the image point under `point` stays under it, unless that would pull an image edge into the
 * frame (the pan is clamped, clampPan).
 */
export function zoomAbout(view: ZoomView, nextScale: number, point: Point): ZoomView {
  const scale = clampZoom(nextScale);
  // The image point (fractions of the image) under `point` before the zoom …
  const u = (point.x - view.x) / view.scale;
  const v = (point.y - view.y) / view.scale;
  // … is drawn at `point` after it.
  return clampPan({ scale, x: point.x - scale * u, y: point.y - scale * v });
}

/**
 * `view` moved by `dx`, `dy` (frame fractions; positive moves the image right and down, as a drag
 * does), clamped (clampPan).
 */
export function panBy(view: ZoomView, dx: number, dy: number): ZoomView {
  return clampPan({ scale: view.scale, x: view.x + dx, y: view.y + dy });
}

/**
 * One step of a two-finger pinch: the fingers moved from `from` to `to` (two points each, CSS pixels
 * from the frame's top-left corner) in a frame of `frame` CSS pixels. The zoom changes by the ratio of
 * the fingers' distances and the image point under the fingers' old midpoint moves to their new
 * midpoint (zoom and pan in one), clamped (clampPan). Fingers on one spot change nothing.
 */
export function pinch(view: ZoomView, from: readonly [Point, Point], to: readonly [Point, Point], frame: Size): ZoomView {
  const distance = ([a, b]: readonly [Point, Point]) => Math.hypot(b.x - a.x, b.y - a.y);
  const before = distance(from);
  const after = distance(to);
  if (before <= 0 || after <= 0 || frame.w <= 0 || frame.h <= 0) return view;
  const mid = ([a, b]: readonly [Point, Point]): Point => ({ x: (a.x + b.x) / 2 / frame.w, y: (a.y + b.y) / 2 / frame.h });
  const m0 = mid(from);
  const m1 = mid(to);
  const scale = clampZoom((view.scale * after) / before);
  const u = (m0.x - view.x) / view.scale;
  const v = (m0.y - view.y) / view.scale;
  return clampPan({ scale, x: m1.x - scale * u, y: m1.y - scale * v });
}

/**
 * The zoom (a factor of fit, clamped to MIN_ZOOM..MAX_ZOOM) at which an image of `natural` pixels,
 * drawn in a frame of `frame` CSS pixels as CSS `object-fit: <fit>` draws it ('cover', as the comparison
 * does, or 'contain'), shows one image pixel per CSS pixel ("1:1"). An image smaller than the frame is already
 * larger than 1:1 at fit, so it gives fit (1); a very large one gives MAX_ZOOM. Empty sizes give fit.
 */
export function oneToOneZoom(natural: Size, frame: Size, fit: 'cover' | 'contain' = 'cover'): number {
  if (natural.w <= 0 || natural.h <= 0 || frame.w <= 0 || frame.h <= 0) return MIN_ZOOM;
  // CSS pixels per image pixel at fit.
  const sx = frame.w / natural.w;
  const sy = frame.h / natural.h;
  const atFit = fit === 'cover' ? Math.max(sx, sy) : Math.min(sx, sy);
  return clampZoom(1 / atFit);
}

/**
 * The factor one wheel event zooms by: `deltaY` in the event's `deltaMode` (0 pixels, 1 lines, 2 pages)
 * as WheelEvent gives it; negative (wheel up, fingers apart on a trackpad) zooms in (> 1). A trackpad
 * pinch arrives as a wheel event with `ctrlKey` and small deltas, so it counts more per pixel. One
 * notch of a mouse wheel (100 px) is about 1.2×; a single event never goes beyond 2× either way.
 */
export function wheelZoomFactor(deltaY: number, deltaMode: number, ctrlKey: boolean): number {
  if (!Number.isFinite(deltaY)) return 1;
  const px = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 800 : deltaY;
  const exponent = -px * (ctrlKey ? 0.01 : 0.002);
  return Math.exp(Math.max(-Math.LN2, Math.min(Math.LN2, exponent)));
}

/** The view after a key of the open viewer (`+`/`=` in, `-` out, `0` fit, arrows pan when zoomed), or null when the key does nothing here. */
export function keyZoom(view: ZoomView, key: string): ZoomView | null {
  switch (key) {
    case '+':
    case '=':
      return zoomAbout(view, view.scale * ZOOM_STEP, FRAME_CENTRE);
    case '-':
    case '_':
      return zoomAbout(view, view.scale / ZOOM_STEP, FRAME_CENTRE);
    case '0':
      return FIT_VIEW;
  }
  if (view.scale <= MIN_ZOOM) return null;
  // An arrow shows more of that side: the image moves the other way.
  switch (key) {
    case 'ArrowLeft':
      return panBy(view, PAN_STEP, 0);
    case 'ArrowRight':
      return panBy(view, -PAN_STEP, 0);
    case 'ArrowUp':
      return panBy(view, 0, PAN_STEP);
    case 'ArrowDown':
      return panBy(view, 0, -PAN_STEP);
  }
  return null;
}

/** The zoom as a whole percentage of fit (1.2345 → 123). */
export function zoomPercent(scale: number): number {
  return Math.round(clampZoom(scale) * 100);
}

/** The zoom as `data-zoom` carries it: a plain number with at most three decimals ("2.5", "1"). */
export function zoomAttribute(scale: number): string {
  return String(Math.round(clampZoom(scale) * 1000) / 1000);
}
