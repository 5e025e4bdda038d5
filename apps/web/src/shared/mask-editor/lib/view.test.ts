import { describe, expect, it } from 'vitest';
import { FIT_MARGIN, clampView, fitView, imageToScreen, panBy, pinchView, screenToImage, wheelZoomFactor, zoomAt, zoomLimits } from './view';

const image = { width: 1500, height: 1500 };
const phone = { width: 351, height: 500 };

describe('mask editor view', () => {
  it('fits and centres the photo, and maps screen ↔ image both ways', () => {
    const v = fitView(image, phone);
    expect(v.scale).toBeCloseTo((351 / 1500) * FIT_MARGIN);
    expect(v.x).toBeCloseTo((351 - 1500 * v.scale) / 2);
    const p = { x: 120, y: 260 };
    const back = imageToScreen(v, screenToImage(v, p));
    expect(back.x).toBeCloseTo(p.x);
    expect(back.y).toBeCloseTo(p.y);
    // the viewport centre is the photo's centre
    const c = screenToImage(v, { x: 175.5, y: 250 });
    expect(c.x).toBeCloseTo(750);
    expect(c.y).toBeCloseTo(750);
  });

  it('zooms about a point: the image point under it stays put, within the limits', () => {
    const v = fitView(image, phone);
    const limits = zoomLimits(image, phone);
    const at = { x: 80, y: 300 };
    const before = screenToImage(v, at);
    const z = zoomAt(v, 3, at, limits);
    expect(z.scale).toBeCloseTo(v.scale * 3);
    const after = screenToImage(z, at);
    expect(after.x).toBeCloseTo(before.x);
    expect(after.y).toBeCloseTo(before.y);
    expect(zoomAt(v, 1000, at, limits).scale).toBe(limits.max);
    expect(zoomAt(v, 0.001, at, limits).scale).toBe(limits.min);
    expect(limits.max).toBeGreaterThanOrEqual(4);
  });

  it('pinch: scale follows the fingers’ distance, the point under their midpoint follows the midpoint', () => {
    const v = fitView(image, phone);
    const limits = zoomLimits(image, phone);
    const from = [{ x: 100, y: 200 }, { x: 200, y: 200 }] as const;
    const to = [{ x: 60, y: 260 }, { x: 260, y: 260 }] as const; // twice as far apart, moved by (10, 60)
    const p = pinchView(v, from, to, limits);
    expect(p.scale).toBeCloseTo(v.scale * 2);
    const anchor = screenToImage(v, { x: 150, y: 200 });
    const now = imageToScreen(p, anchor);
    expect(now.x).toBeCloseTo(160);
    expect(now.y).toBeCloseTo(260);
    // two fingers moving together only pan
    const pan = pinchView(v, from, [{ x: 110, y: 230 }, { x: 210, y: 230 }], limits);
    expect(pan.scale).toBe(v.scale);
    expect(pan.x).toBeCloseTo(v.x + 10);
    expect(pan.y).toBeCloseTo(v.y + 30);
  });

  it('never lets the photo leave the middle of the viewport', () => {
    const v = zoomAt(fitView(image, phone), 4, { x: 175, y: 250 }, zoomLimits(image, phone));
    const far = clampView(panBy(v, 5000, -5000), image, phone);
    expect(far.x).toBe(175.5);
    expect(far.y).toBe(250 - 1500 * v.scale);
    const near = panBy(v, 3, 4);
    expect(clampView(near, image, phone)).toEqual(near);
  });

  it('wheel: up zooms in, down zooms out, a mouse notch is a fixed step', () => {
    expect(wheelZoomFactor(-100, 0)).toBeGreaterThan(1);
    expect(wheelZoomFactor(100, 0)).toBeLessThan(1);
    expect(wheelZoomFactor(-3, 1)).toBeCloseTo(wheelZoomFactor(-48, 0));
    expect(wheelZoomFactor(-100000, 0)).toBeCloseTo(Math.exp(0.5));
  });
});
