import { describe, expect, it } from 'vitest';
import {
  FIT_VIEW,
  MAX_ZOOM,
  PAN_STEP,
  ZOOM_STEP,
  clampPan,
  clampZoom,
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
} from './zoom';

/** Where the image point at `u` (image fractions) is drawn under `view` (frame fractions). */
const drawnAt = (view: ZoomView, u: Point): Point => ({ x: view.x + view.scale * u.x, y: view.y + view.scale * u.y });
/** Which image point (image fractions) is under frame point `p`. */
const under = (view: ZoomView, p: Point): Point => ({ x: (p.x - view.x) / view.scale, y: (p.y - view.y) / view.scale });

describe('full-screen comparison zoom maths', () => {
  it('clamps the zoom between fit (1) and 4', () => {
    expect(clampZoom(0.5)).toBe(1);
    expect(clampZoom(1)).toBe(1);
    expect(clampZoom(2.5)).toBe(2.5);
    expect(clampZoom(4)).toBe(4);
    expect(clampZoom(9)).toBe(4);
    expect(clampZoom(Number.NaN)).toBe(1);
    expect(clampZoom(Number.POSITIVE_INFINITY)).toBe(1);
  });

  it('zooms about a point: the image point under it stays under it', () => {
    const p = { x: 0.25, y: 0.7 };
    const start = FIT_VIEW;
    const imagePoint = under(start, p);
    const zoomed = zoomAbout(start, 2, p);
    expect(zoomed.scale).toBe(2);
    expect(drawnAt(zoomed, imagePoint).x).toBeCloseTo(p.x, 12);
    expect(drawnAt(zoomed, imagePoint).y).toBeCloseTo(p.y, 12);
    // again from a zoomed, moved view, about another point
    const q = { x: 0.6, y: 0.4 };
    const before = under(zoomed, q);
    const more = zoomAbout(zoomed, 3, q);
    expect(more.scale).toBe(3);
    expect(drawnAt(more, before).x).toBeCloseTo(q.x, 12);
    expect(drawnAt(more, before).y).toBeCloseTo(q.y, 12);
    // zooming out about the same point brings the view back
    const back = zoomAbout(more, 2, q);
    expect(back.x).toBeCloseTo(zoomed.x, 12);
    expect(back.y).toBeCloseTo(zoomed.y, 12);
    // about the centre, from fit: the centre stays the centre
    expect(zoomAbout(FIT_VIEW, 2, { x: 0.5, y: 0.5 })).toEqual({ scale: 2, x: -0.5, y: -0.5 });
  });

  it('never zooms past 4 or below fit, and back at fit the image is where it started', () => {
    expect(zoomAbout(FIT_VIEW, 10, { x: 0.5, y: 0.5 }).scale).toBe(MAX_ZOOM);
    expect(zoomAbout({ scale: 3, x: -1, y: -0.5 }, 0.2, { x: 0.1, y: 0.9 })).toEqual(FIT_VIEW);
  });

  it('clamps the pan so that no image edge comes inside the frame', () => {
    // zoomed 2×: the top-left corner may go from 0 (left edge at the frame's) to -1 (right edge at the frame's)
    expect(clampPan({ scale: 2, x: 0.3, y: -1.7 })).toEqual({ scale: 2, x: 0, y: -1 });
    expect(clampPan({ scale: 2, x: -0.4, y: -0.6 })).toEqual({ scale: 2, x: -0.4, y: -0.6 });
    expect(panBy({ scale: 2, x: -0.5, y: -0.5 }, 10, -10)).toEqual({ scale: 2, x: 0, y: -1 });
    expect(panBy({ scale: 2, x: -0.5, y: -0.5 }, 0.2, -0.1)).toEqual({ scale: 2, x: -0.3, y: -0.6 });
    // at fit nothing moves
    expect(panBy(FIT_VIEW, 0.3, -0.3)).toEqual(FIT_VIEW);
    // zooming about a point near a corner cannot show what lies outside the image
    const corner = zoomAbout({ scale: 4, x: 0, y: 0 }, 1.5, { x: 0.05, y: 0.05 });
    expect(corner.x).toBeLessThanOrEqual(0);
    expect(corner.x).toBeGreaterThanOrEqual(1 - corner.scale);
    expect(corner.y).toBeLessThanOrEqual(0);
    expect(corner.y).toBeGreaterThanOrEqual(1 - corner.scale);
    expect(clampPan({ scale: 2, x: Number.NaN, y: 0 })).toEqual({ scale: 2, x: 0, y: 0 });
  });

  it('gives 1:1 (one image pixel per CSS pixel) for an image larger and smaller than the frame', () => {
    // 1200×1500 in a 600×750 frame: fit shows it at half size, so 1:1 is 2×
    expect(oneToOneZoom({ w: 1200, h: 1500 }, { w: 600, h: 750 })).toBe(2);
    // cover of another shape: the side that fills the frame decides (2000×1000 in 500×500 is drawn 1000×500 → 2×)
    expect(oneToOneZoom({ w: 2000, h: 1000 }, { w: 500, h: 500 })).toBe(2);
    // contain: 2000×1000 in 500×500 is drawn 500×250 → 4×
    expect(oneToOneZoom({ w: 2000, h: 1000 }, { w: 500, h: 500 }, 'contain')).toBe(4);
    // larger than 4× the frame: clamped to 4
    expect(oneToOneZoom({ w: 4000, h: 5000 }, { w: 400, h: 500 })).toBe(4);
    // smaller than the frame: fit already shows it larger than 1:1, so 1:1 is fit
    expect(oneToOneZoom({ w: 64, h: 80 }, { w: 400, h: 500 })).toBe(1);
    expect(oneToOneZoom({ w: 0, h: 0 }, { w: 400, h: 500 })).toBe(1);
    expect(oneToOneZoom({ w: 1200, h: 1500 }, { w: 0, h: 0 })).toBe(1);
  });

  it('pinches: the zoom follows the fingers’ distance and the point between them follows them', () => {
    const frame = { w: 400, h: 500 };
    // fingers 100 px apart about (200, 250), spread to 200 px apart about the same midpoint
    const spread = pinch(FIT_VIEW, [{ x: 150, y: 250 }, { x: 250, y: 250 }], [{ x: 100, y: 250 }, { x: 300, y: 250 }], frame);
    expect(spread).toEqual({ scale: 2, x: -0.5, y: -0.5 });
    // two fingers moving together 40 px right at 2×: a pan of 40 / 400 of the frame
    const moved = pinch(spread, [{ x: 100, y: 250 }, { x: 300, y: 250 }], [{ x: 140, y: 250 }, { x: 340, y: 250 }], frame);
    expect(moved.scale).toBeCloseTo(2, 12);
    expect(moved.x).toBeCloseTo(-0.4, 12);
    expect(moved.y).toBeCloseTo(-0.5, 12);
    // fingers on one spot change nothing; a pinch cannot go past 4
    expect(pinch(spread, [{ x: 1, y: 1 }, { x: 1, y: 1 }], [{ x: 50, y: 1 }, { x: 1, y: 1 }], frame)).toBe(spread);
    expect(pinch(spread, [{ x: 195, y: 250 }, { x: 205, y: 250 }], [{ x: 0, y: 0 }, { x: 400, y: 500 }], frame).scale).toBe(4);
  });

  it('turns a wheel event into a zoom factor: up zooms in, down out, bounded per event', () => {
    expect(wheelZoomFactor(-100, 0, false)).toBeGreaterThan(1.15);
    expect(wheelZoomFactor(-100, 0, false)).toBeLessThan(1.3);
    expect(wheelZoomFactor(100, 0, false)).toBeCloseTo(1 / wheelZoomFactor(-100, 0, false), 12);
    expect(wheelZoomFactor(-3, 1, false)).toBeCloseTo(wheelZoomFactor(-48, 0, false), 12);
    // a trackpad pinch (ctrl + small deltas) counts more per pixel
    expect(wheelZoomFactor(-10, 0, true)).toBeGreaterThan(wheelZoomFactor(-10, 0, false));
    expect(wheelZoomFactor(-100_000, 0, false)).toBeCloseTo(2, 12);
    expect(wheelZoomFactor(100_000, 0, true)).toBeCloseTo(0.5, 12);
    expect(wheelZoomFactor(Number.NaN, 0, false)).toBe(1);
    expect(wheelZoomFactor(0, 0, false)).toBe(1);
  });

  it('maps the viewer’s keys: + and = in, - out, 0 fit, arrows pan only when zoomed', () => {
    expect(keyZoom(FIT_VIEW, '+')?.scale).toBeCloseTo(ZOOM_STEP, 12);
    expect(keyZoom(FIT_VIEW, '=')?.scale).toBeCloseTo(ZOOM_STEP, 12);
    expect(keyZoom({ scale: 2, x: -0.5, y: -0.5 }, '-')?.scale).toBeCloseTo(2 / ZOOM_STEP, 12);
    expect(keyZoom({ scale: 4, x: -3, y: -3 }, '+')?.scale).toBe(4);
    expect(keyZoom({ scale: 3, x: -1, y: -2 }, '0')).toEqual(FIT_VIEW);
    expect(keyZoom(FIT_VIEW, 'ArrowRight')).toBeNull();
    expect(keyZoom(FIT_VIEW, 'a')).toBeNull();
    const view = { scale: 2, x: -0.5, y: -0.5 };
    expect(keyZoom(view, 'ArrowRight')).toEqual({ scale: 2, x: -0.5 - PAN_STEP, y: -0.5 });
    expect(keyZoom(view, 'ArrowLeft')).toEqual({ scale: 2, x: -0.5 + PAN_STEP, y: -0.5 });
    expect(keyZoom(view, 'ArrowDown')).toEqual({ scale: 2, x: -0.5, y: -0.5 - PAN_STEP });
    expect(keyZoom(view, 'ArrowUp')).toEqual({ scale: 2, x: -0.5, y: -0.5 + PAN_STEP });
    expect(keyZoom({ scale: 2, x: -1, y: 0 }, 'ArrowRight')).toEqual({ scale: 2, x: -1, y: 0 });
  });

  it('shows the zoom as a percentage of fit and as a data attribute', () => {
    expect(zoomPercent(1)).toBe(100);
    expect(zoomPercent(2.154)).toBe(215);
    expect(zoomPercent(7)).toBe(400);
    expect(zoomAttribute(2.5)).toBe('2.5');
    expect(zoomAttribute(1)).toBe('1');
    expect(zoomAttribute(1.23456)).toBe('1.235');
  });
});
