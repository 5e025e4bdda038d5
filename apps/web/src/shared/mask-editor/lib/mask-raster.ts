import type { Point } from './view';

/**
 * The mask as data: one byte per image pixel (1 = change, 0 = keep) at the photo's exact size, and the
 * editor's operations that paint it. Strokes are drawn in image pixel coordinates without anti-aliasing
 * (a pixel is in when its centre is), so the saved PNG is pure white on black at the photo's size.
 */
export interface Bitmask {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/** Brush diameter and position are image pixels; `erase` clears instead of painting. */
export interface StrokeOp {
  kind: 'stroke';
  erase: boolean;
  size: number;
  points: readonly Point[];
}
/** A filled rectangle between two corners (image pixels). */
export interface RectOp {
  kind: 'rect';
  from: Point;
  to: Point;
}
export interface ClearOp {
  kind: 'clear';
}
export type MaskOp = StrokeOp | RectOp | ClearOp;

/** An integer pixel box (x, y of its top-left pixel). */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An empty mask of the given size. */
export function createMask(width: number, height: number): Bitmask {
  return { width, height, data: new Uint8Array(width * height) };
}

/** The smallest box holding both (either may be null). */
export function unionRect(a: PixelRect | null, b: PixelRect | null): PixelRect | null {
  if (!a) return b;
  if (!b) return a;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

type Span = [number, number] | null;

const intersect = (a: Span, b: Span): Span => {
  if (!a || !b) return null;
  const lo = Math.max(a[0], b[0]);
  const hi = Math.min(a[1], b[1]);
  return lo <= hi ? [lo, hi] : null;
};

/** x-range where `lo ≤ k·x + c ≤ hi` (the whole line when k is 0 and c fits, none when it does not). */
function linearSpan(k: number, c: number, lo: number, hi: number): Span {
  if (k === 0) return c >= lo && c <= hi ? [-Infinity, Infinity] : null;
  const x1 = (lo - c) / k;
  const x2 = (hi - c) / k;
  return [Math.min(x1, x2), Math.max(x1, x2)];
}

/** x-range of a disc on the horizontal line y = cy. */
function discSpan(p: Point, r: number, cy: number): Span {
  const dy = cy - p.y;
  if (Math.abs(dy) > r) return null;
  const half = Math.sqrt(r * r - dy * dy);
  return [p.x - half, p.x + half];
}

/**
 * Paint (value 1) or clear (0) the capsule of radius `radius` around segment a→b: every pixel whose
 * centre lies within `radius` of the segment. Clipped to the mask.
 * @returns the changed box, or null when nothing inside the mask was touched
 */
export function stampSegment(mask: Bitmask, a: Point, b: Point, radius: number, value: 0 | 1): PixelRect | null {
  const { width, height, data } = mask;
  const r = Math.max(0.5, radius);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const len = Math.sqrt(len2);
  const y0 = Math.max(0, Math.ceil(Math.min(a.y, b.y) - r - 0.5));
  const y1 = Math.min(height - 1, Math.floor(Math.max(a.y, b.y) + r - 0.5));
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let j = y0; j <= y1; j++) {
    const cy = j + 0.5;
    const pieces: Span[] = [discSpan(a, r, cy), discSpan(b, r, cy)];
    if (len2 > 0) {
      // along the segment: 0 ≤ (q − a)·d ≤ |d|²; across it: |(q − a)×d| ≤ r·|d|
      const along = linearSpan(dx, -a.x * dx + (cy - a.y) * dy, 0, len2);
      const across = linearSpan(dy, -a.x * dy - (cy - a.y) * dx, -r * len, r * len);
      pieces.push(intersect(along, across));
    }
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of pieces) {
      if (!s) continue;
      lo = Math.min(lo, s[0]);
      hi = Math.max(hi, s[1]);
    }
    if (lo > hi) continue;
    const i0 = Math.max(0, Math.ceil(lo - 0.5));
    const i1 = Math.min(width - 1, Math.floor(hi - 0.5));
    if (i0 > i1) continue;
    data.fill(value, j * width + i0, j * width + i1 + 1);
    minX = Math.min(minX, i0);
    maxX = Math.max(maxX, i1);
    minY = Math.min(minY, j);
    maxY = Math.max(maxY, j);
  }
  return minX <= maxX ? { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 } : null;
}

/** The pixel box whose centres lie inside the rectangle between two corners, clipped; null if none. */
export function rectPixels(mask: { width: number; height: number }, from: Point, to: Point): PixelRect | null {
  const x0 = Math.max(0, Math.ceil(Math.min(from.x, to.x) - 0.5));
  const x1 = Math.min(mask.width - 1, Math.floor(Math.max(from.x, to.x) - 0.5));
  const y0 = Math.max(0, Math.ceil(Math.min(from.y, to.y) - 0.5));
  const y1 = Math.min(mask.height - 1, Math.floor(Math.max(from.y, to.y) - 0.5));
  return x0 <= x1 && y0 <= y1 ? { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 } : null;
}

/** Paint (1) or clear (0) a pixel box. */
export function fillPixels(mask: Bitmask, box: PixelRect, value: 0 | 1): void {
  for (let j = box.y; j < box.y + box.height; j++) mask.data.fill(value, j * mask.width + box.x, j * mask.width + box.x + box.width);
}

/**
 * Apply one segment of a stroke (or its first point when `from` is null): the editor paints a stroke
 * live, segment by segment, exactly as {@link applyOp} replays it.
 */
export function applyStrokeSegment(mask: Bitmask, op: Pick<StrokeOp, 'erase' | 'size'>, from: Point | null, to: Point): PixelRect | null {
  return stampSegment(mask, from ?? to, to, op.size / 2, op.erase ? 0 : 1);
}

/**
 * Apply one operation to the mask.
 * @returns the changed box (the whole mask for clear), or null when nothing changed
 */
export function applyOp(mask: Bitmask, op: MaskOp): PixelRect | null {
  if (op.kind === 'clear') {
    mask.data.fill(0);
    return { x: 0, y: 0, width: mask.width, height: mask.height };
  }
  if (op.kind === 'rect') {
    const box = rectPixels(mask, op.from, op.to);
    if (box) fillPixels(mask, box, 1);
    return box;
  }
  let changed: PixelRect | null = null;
  let prev: Point | null = null;
  for (const p of op.points) {
    changed = unionRect(changed, applyStrokeSegment(mask, op, prev, p));
    prev = p;
  }
  return changed;
}

/** Repaint the mask from nothing with `ops` in order. */
export function renderOps(mask: Bitmask, ops: readonly MaskOp[]): void {
  mask.data.fill(0);
  for (const op of ops) applyOp(mask, op);
}

/** Number of painted pixels. */
export function countPainted(mask: Bitmask): number {
  let n = 0;
  for (let i = 0; i < mask.data.length; i++) n += mask.data[i] as number;
  return n;
}

export type Rgba = readonly [number, number, number, number];

/** Pixel colours of the saved mask (001 §9: white = change, black elsewhere, opaque). */
export const MASK_ON: Rgba = [255, 255, 255, 255];
export const MASK_OFF: Rgba = [0, 0, 0, 255];

/**
 * RGBA pixels of a box of the mask (the whole mask by default): `on` where painted, `off` elsewhere.
 * Used for the editor's coloured overlay (off transparent) and for the saved PNG (white on black).
 */
export function maskToRgba(mask: Bitmask, on: Rgba, off: Rgba, box: PixelRect = { x: 0, y: 0, width: mask.width, height: mask.height }): Uint8ClampedArray<ArrayBuffer> {
  const out = new Uint8ClampedArray(new ArrayBuffer(box.width * box.height * 4));
  let o = 0;
  for (let j = box.y; j < box.y + box.height; j++) {
    const row = j * mask.width;
    for (let i = box.x; i < box.x + box.width; i++) {
      const c = mask.data[row + i] ? on : off;
      out[o] = c[0];
      out[o + 1] = c[1];
      out[o + 2] = c[2];
      out[o + 3] = c[3];
      o += 4;
    }
  }
  return out;
}
