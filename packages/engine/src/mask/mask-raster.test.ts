import { describe, expect, it } from 'vitest';
import { createPlane, featherOutside, fillPolygon, rasterizeMask } from './mask-raster';

describe('mask rasterisation', () => {
  it('fills a polygon hard-edged at pixel centres', () => {
    const m = rasterizeMask(20, 20, [[[2, 3], [12, 3], [12, 8], [2, 8]]]);
    let sum = 0;
    for (const v of m.data) { expect(v === 0 || v === 1).toBe(true); sum += v; }
    expect(sum).toBe(10 * 5);
    expect(m.data[3 * 20 + 2]).toBe(1);
    expect(m.data[8 * 20 + 2]).toBe(0);
  });

  it('scales to any size and feathers softly when asked', () => {
    const tri: Array<[number, number]> = [[10, 10], [90, 10], [50, 90]];
    const soft = rasterizeMask(100, 100, [tri], 3);
    expect(soft.data[30 * 100 + 50]).toBeCloseTo(1, 2);
    const edge = soft.data[10 * 100 + 50]!;
    expect(edge).toBeGreaterThan(0.2);
    expect(edge).toBeLessThan(0.8);
  });

  it('featherOutside keeps the interior exactly 1 and only widens outward', () => {
    const hard = createPlane(50, 50);
    fillPolygon(hard, [[10, 10], [40, 10], [40, 40], [10, 40]]);
    const soft = featherOutside(hard, 6);
    for (let i = 0; i < hard.data.length; i++) {
      if (hard.data[i] === 1) expect(soft.data[i]).toBe(1);
      else expect(soft.data[i]!).toBeLessThan(1.0001);
    }
    expect(soft.data[25 * 50 + 8]!).toBeGreaterThan(0.3); // 2 px outside the edge: still mostly excluded
    expect(soft.data[25 * 50 + 1]!).toBeLessThan(0.2); // far outside: fading out
  });
});
