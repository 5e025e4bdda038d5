import { describe, expect, it } from 'vitest';
import { faceEditBaseSize, faceEditCost, faceEditSize, normalizeResizeFactor } from './face-edit-size';

describe('faceEditBaseSize (spec 001 §5: width + height → 3000 unless within 2 %)', () => {
  it('keeps a sum of exactly 3000', () => {
    expect(faceEditBaseSize(1500, 1500)).toEqual({ width: 1500, height: 1500 });
    expect(faceEditBaseSize(1200, 1800)).toEqual({ width: 1200, height: 1800 });
  });

  it('keeps sums within 2 % above 3000 (up to 3060)', () => {
    expect(faceEditBaseSize(1530, 1530)).toEqual({ width: 1530, height: 1530 });
    expect(faceEditBaseSize(1000, 2060)).toEqual({ width: 1000, height: 2060 });
  });

  it('downscales 3061 proportionally to a sum of 3000', () => {
    const s = faceEditBaseSize(1531, 1530);
    expect(s.width + s.height).toBe(3000);
    expect(s).toEqual({ width: 1500, height: 1500 });
    const t = faceEditBaseSize(1000, 2061);
    expect(Math.abs(t.width + t.height - 3000)).toBeLessThanOrEqual(1);
    expect(t.width / t.height).toBeCloseTo(1000 / 2061, 2);
  });

  it('downscales large photos and never upscales small ones', () => {
    expect(faceEditBaseSize(4000, 2000)).toEqual({ width: 2000, height: 1000 });
    const o = faceEditBaseSize(1434, 2333); // obama3 fixture, sum 3767
    expect(o.width + o.height).toBeGreaterThanOrEqual(2999);
    expect(o.width + o.height).toBeLessThanOrEqual(3001);
    expect(faceEditBaseSize(400, 225)).toEqual({ width: 400, height: 225 });
    expect(faceEditBaseSize(1400, 1500)).toEqual({ width: 1400, height: 1500 });
  });

  it('honours another maxSum', () => {
    expect(faceEditBaseSize(1000, 1000, 1000)).toEqual({ width: 500, height: 500 });
    expect(faceEditBaseSize(510, 510, 1000)).toEqual({ width: 510, height: 510 });
  });

  it('rejects non-integer or empty sizes', () => {
    expect(() => faceEditBaseSize(0, 10)).toThrow(/INVALID_OPTIONS/);
    expect(() => faceEditBaseSize(10.5, 10)).toThrow(/INVALID_OPTIONS/);
  });
});

describe('faceEditSize / resize factor', () => {
  it('scales the rule size by resize_factor, each side rounded', () => {
    expect(faceEditSize(1500, 1500, 1)).toEqual({ width: 1500, height: 1500 });
    expect(faceEditSize(1500, 1500, 1.5)).toEqual({ width: 2250, height: 2250 });
    expect(faceEditSize(4000, 2000, 0.5)).toEqual({ width: 1000, height: 500 });
    expect(faceEditSize(911, 1137, 0.5)).toEqual({ width: 456, height: 569 });
  });

  it('rounds the factor to 2 decimals first', () => {
    expect(normalizeResizeFactor(1.234)).toBe(1.23);
    expect(faceEditSize(1000, 1000, 1.234)).toEqual({ width: 1230, height: 1230 });
    expect(normalizeResizeFactor(0.095)).toBe(0.1);
  });

  it('accepts 0.1 to 4 and refuses the rest', () => {
    expect(normalizeResizeFactor(0.1)).toBe(0.1);
    expect(normalizeResizeFactor(4)).toBe(4);
    expect(normalizeResizeFactor(4.004)).toBe(4);
    for (const bad of [0.09, 0.094, 4.01, 0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => normalizeResizeFactor(bad), String(bad)).toThrow(/INVALID_OPTIONS: resizeFactor/);
    }
  });

  it('never returns a side below 1 px', () => {
    expect(faceEditSize(3, 1, 0.1)).toEqual({ width: 1, height: 1 });
  });
});

describe('faceEditCost (spec 001 §9)', () => {
  it('is 85 up to a size sum of 3000', () => {
    expect(faceEditCost(1500, 1500, 1)).toBe(85);
    expect(faceEditCost(400, 225, 1)).toBe(85);
    expect(faceEditCost(1000, 999, 1.6)).toBe(85); // 1600 + 1598 = 3198: no full 200 above
  });

  it('adds 10 per full 200 above 3000', () => {
    expect(faceEditCost(1000, 1000, 1.6)).toBe(95); // 3200
    expect(faceEditCost(1500, 1500, 1.1)).toBe(95); // 3300
    expect(faceEditCost(1500, 1500, 1.14)).toBe(105); // 1710 + 1710 = 3420
    expect(faceEditCost(1500, 1500, 2)).toBe(85 + 10 * 15); // 6000
  });

  it('applies the upload rule first (sum 3061 costs like 3000), and round() per side', () => {
    expect(faceEditCost(1531, 1530, 1)).toBe(85);
    expect(faceEditCost(4000, 2000, 2)).toBe(85 + 10 * 15); // rule → 2000×1000, ×2 = 6000
    // round(1001·1.5) + round(1001·1.5) = 1502 + 1502 = 3004: still within the first 200
    expect(faceEditCost(1001, 1001, 1.5)).toBe(85);
  });

  it('defaults the factor to 1', () => {
    expect(faceEditCost(1530, 1530)).toBe(85 + 0); // 3060, 60 above: no full 200
  });
});
