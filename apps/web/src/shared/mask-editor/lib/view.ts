/**
 * The mask editor's view: how the photo (image pixels) sits in the viewport (CSS pixels, relative to
 * the viewport's top-left corner): screen = image × scale + offset. Pure functions, so zoom, pan and
 * pinch can be tested without a browser.
 */

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface View {
  /** CSS pixels per image pixel. */
  scale: number;
  /** Screen position of the image's top-left corner. */
  x: number;
  y: number;
}

export interface ZoomLimits {
  min: number;
  max: number;
}

/** Share of the viewport the fitted photo fills (a small margin shows where it ends). */
export const FIT_MARGIN = 0.96;

/** Scale at which the whole photo fits the viewport. */
export function fitScale(image: Size, viewport: Size): number {
  if (image.width <= 0 || image.height <= 0 || viewport.width <= 0 || viewport.height <= 0) return 1;
  return Math.min(viewport.width / image.width, viewport.height / image.height) * FIT_MARGIN;
}

/** The photo fitted and centred in the viewport. */
export function fitView(image: Size, viewport: Size): View {
  const scale = fitScale(image, viewport);
  return { scale, x: (viewport.width - image.width * scale) / 2, y: (viewport.height - image.height * scale) / 2 };
}

/** Zoom range for a photo in a viewport: half the fitted size up to 12× it (at least 4 CSS px per image px). */
export function zoomLimits(image: Size, viewport: Size): ZoomLimits {
  const fit = fitScale(image, viewport);
  return { min: fit / 2, max: Math.max(fit * 12, 4) };
}

/** Image coordinates (pixels, fractional) of a viewport point. */
export function screenToImage(view: View, p: Point): Point {
  return { x: (p.x - view.x) / view.scale, y: (p.y - view.y) / view.scale };
}

/** Viewport coordinates of an image point. */
export function imageToScreen(view: View, p: Point): Point {
  return { x: p.x * view.scale + view.x, y: p.y * view.scale + view.y };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Keep the photo reachable: its edges may not pass the viewport's centre, so some of it always covers
 * the middle of the screen (no panning the photo out of sight).
 */
export function clampView(view: View, image: Size, viewport: Size): View {
  const cx = viewport.width / 2;
  const cy = viewport.height / 2;
  return {
    scale: view.scale,
    x: clamp(view.x, cx - image.width * view.scale, cx),
    y: clamp(view.y, cy - image.height * view.scale, cy),
  };
}

/** Zoom by `factor` about a viewport point (the image point under it stays under it), within `limits`. */
export function zoomAt(view: View, factor: number, at: Point, limits: ZoomLimits): View {
  const scale = clamp(view.scale * factor, limits.min, limits.max);
  const anchor = screenToImage(view, at);
  return { scale, x: at.x - anchor.x * scale, y: at.y - anchor.y * scale };
}

/** Move the photo by a screen distance. */
export function panBy(view: View, dx: number, dy: number): View {
  return { scale: view.scale, x: view.x + dx, y: view.y + dy };
}

/**
 * Two-finger pinch: from the view when both fingers landed (`start`) and where they were (`from`) to
 * where they are (`to`): the scale follows the fingers' distance and the image point under their first
 * midpoint follows their midpoint (zoom and pan in one gesture).
 */
export function pinchView(start: View, from: readonly [Point, Point], to: readonly [Point, Point], limits: ZoomLimits): View {
  const d0 = Math.hypot(from[1].x - from[0].x, from[1].y - from[0].y);
  const d1 = Math.hypot(to[1].x - to[0].x, to[1].y - to[0].y);
  const factor = d0 > 0 ? d1 / d0 : 1;
  const m0 = { x: (from[0].x + from[1].x) / 2, y: (from[0].y + from[1].y) / 2 };
  const m1 = { x: (to[0].x + to[1].x) / 2, y: (to[0].y + to[1].y) / 2 };
  const scale = clamp(start.scale * factor, limits.min, limits.max);
  const anchor = screenToImage(start, m0);
  return { scale, x: m1.x - anchor.x * scale, y: m1.y - anchor.y * scale };
}

/**
 * Zoom factor of one wheel event: smooth for trackpads (pixel deltas), a fixed step per notch for mouse
 * wheels (line or page deltas). Up (negative delta) zooms in.
 * @param deltaMode WheelEvent.deltaMode: 0 pixels, 1 lines, 2 pages
 */
export function wheelZoomFactor(deltaY: number, deltaMode: number): number {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp(-clamp(pixels, -200, 200) * 0.0025);
}
