import { describe, expect, it } from 'vitest';
import {
  MASK_OFF,
  MASK_ON,
  applyOp,
  applyStrokeSegment,
  countPainted,
  createMask,
  maskToRgba,
  rectPixels,
  renderOps,
  stampSegment,
  unionRect,
  type MaskOp,
} from './mask-raster';

const at = (m: { width: number; data: Uint8Array }, x: number, y: number) => m.data[y * m.width + x];

describe('mask rasterisation (image pixels, no anti-aliasing)', () => {
  it('a dot of diameter 10 paints the pixels whose centres are within 5 px, about π·25', () => {
    const m = createMask(100, 100);
    const box = stampSegment(m, { x: 50, y: 50 }, { x: 50, y: 50 }, 5, 1);
    expect(box).toEqual({ x: 45, y: 45, width: 10, height: 10 });
    const n = countPainted(m);
    expect(n).toBeGreaterThan(70);
    expect(n).toBeLessThan(90);
    expect(at(m, 50, 50)).toBe(1);
    expect(at(m, 45, 50)).toBe(1); // centre 45.5 is 4.5 from 50
    expect(at(m, 44, 50)).toBe(0);
    expect(at(m, 45, 45)).toBe(0); // corner of the box, 6.4 px away
    expect(at(m, 46, 46)).toBe(1); // 4.95 px away
  });

  it('a horizontal stroke covers its capsule: length plus round caps', () => {
    const m = createMask(60, 30);
    stampSegment(m, { x: 10, y: 10 }, { x: 40, y: 10 }, 2, 1);
    // rows whose centres are within 2 px of y = 10: 8, 9, 10, 11
    expect([7, 8, 9, 10, 11, 12].map((y) => at(m, 25, y))).toEqual([0, 1, 1, 1, 1, 0]);
    // columns 8..41 on the middle rows (centres 8.5 … 41.5 within 2 px of the segment)
    expect([7, 8, 41, 42].map((x) => at(m, x, 9))).toEqual([0, 1, 1, 0]);
  });

  it('a diagonal stroke paints every pixel within the radius of the segment and nothing beyond', () => {
    const m = createMask(80, 80);
    const a = { x: 10.3, y: 12.7 };
    const b = { x: 63.1, y: 55.2 };
    const r = 6.5;
    stampSegment(m, a, b, r, 1);
    const dist = (px: number, py: number) => {
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const t = Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / (dx * dx + dy * dy)));
      return Math.hypot(px - (a.x + t * dx), py - (a.y + t * dy));
    };
    for (let y = 0; y < 80; y++) {
      for (let x = 0; x < 80; x++) {
        const d = dist(x + 0.5, y + 0.5);
        if (Math.abs(d - r) < 1e-9) continue;
        expect(at(m, x, y), `${x},${y} d=${d}`).toBe(d < r ? 1 : 0);
      }
    }
  });

  it('clips at the edges and reports only what changed inside', () => {
    const m = createMask(20, 10);
    expect(stampSegment(m, { x: -5, y: 5 }, { x: 2, y: 5 }, 3, 1)).toEqual({ x: 0, y: 2, width: 5, height: 6 });
    expect(stampSegment(m, { x: 100, y: 100 }, { x: 120, y: 100 }, 3, 1)).toBeNull();
    expect(rectPixels(m, { x: -10, y: -10 }, { x: 3, y: 2 })).toEqual({ x: 0, y: 0, width: 3, height: 2 });
  });

  it('a rectangle covers the pixels whose centres are inside it, whichever corner came first', () => {
    const m = createMask(10, 10);
    applyOp(m, { kind: 'rect', from: { x: 6, y: 5 }, to: { x: 2, y: 3 } });
    expect(countPainted(m)).toBe(4 * 2);
    expect(at(m, 2, 3)).toBe(1);
    expect(at(m, 5, 4)).toBe(1);
    expect(at(m, 6, 4)).toBe(0);
    expect(rectPixels(m, { x: 2.2, y: 2.2 }, { x: 2.4, y: 2.4 })).toBeNull();
  });

  it('erase clears, clear empties, and replaying the ops gives what live painting gave', () => {
    const ops: MaskOp[] = [
      { kind: 'stroke', erase: false, size: 12, points: [{ x: 5, y: 5 }, { x: 30, y: 8 }, { x: 35, y: 30 }] },
      { kind: 'rect', from: { x: 20, y: 20 }, to: { x: 39, y: 39 } },
      { kind: 'stroke', erase: true, size: 6, points: [{ x: 0, y: 30 }, { x: 39, y: 30 }] },
    ];
    const live = createMask(40, 40);
    for (const op of ops) {
      if (op.kind !== 'stroke') {
        applyOp(live, op);
        continue;
      }
      let prev = null;
      for (const p of op.points) {
        applyStrokeSegment(live, op, prev, p);
        prev = p;
      }
    }
    const replay = createMask(40, 40);
    renderOps(replay, ops);
    expect(replay.data).toEqual(live.data);
    expect(at(replay, 30, 30)).toBe(0); // erased band
    expect(at(replay, 30, 25)).toBe(1);
    renderOps(replay, [...ops, { kind: 'clear' }]);
    expect(countPainted(replay)).toBe(0);
  });

  it('saves pure white on opaque black at the mask size', () => {
    const m = createMask(3, 2);
    m.data[1] = 1;
    const rgba = maskToRgba(m, MASK_ON, MASK_OFF);
    expect(rgba.length).toBe(3 * 2 * 4);
    expect(Array.from(rgba.slice(0, 8))).toEqual([0, 0, 0, 255, 255, 255, 255, 255]);
    expect(new Set(rgba).size).toBe(2); // only 0 and 255: no greys
    expect(Array.from(maskToRgba(m, [1, 2, 3, 4], [0, 0, 0, 0], { x: 1, y: 0, width: 1, height: 1 }))).toEqual([1, 2, 3, 4]);
  });

  it('unions changed boxes', () => {
    expect(unionRect(null, { x: 1, y: 1, width: 2, height: 2 })).toEqual({ x: 1, y: 1, width: 2, height: 2 });
    expect(unionRect({ x: 1, y: 1, width: 2, height: 2 }, { x: 5, y: 0, width: 1, height: 1 })).toEqual({ x: 1, y: 0, width: 5, height: 3 });
  });
});
