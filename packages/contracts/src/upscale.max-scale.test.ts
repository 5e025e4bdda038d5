import { describe, expect, it } from 'vitest';
import { SCALE_FACTOR, isUpscaleBlocked, maxScaleFactor } from './upscale';

const grid = Array.from({ length: 20 }, (_, i) => Number(((i + 1) / 10).toFixed(6)));

describe('maxScaleFactor (001 §5 blocking rule on the slider grid)', () => {
  it('gives ×1.9 for the guide’s recommended 1024×1024', () => {
    expect(maxScaleFactor(1024, 1024)).toBe(1.9);
    expect(isUpscaleBlocked(1024, 1024, 2)).toBe(true);
    expect(isUpscaleBlocked(1024, 1024, 1.9)).toBe(false);
  });
  it('gives ×2 for small photos and ×1 when every enlargement is blocked', () => {
    expect(maxScaleFactor(999, 999)).toBe(2);
    expect(maxScaleFactor(1000, 1000)).toBe(1.9); // ×2 = 4000, which is blocked (≥)
    expect(maxScaleFactor(910, 1137)).toBe(1.9);
    expect(maxScaleFactor(1434, 2333)).toBe(1);
    expect(maxScaleFactor(2400, 2500)).toBe(1); // ×1 passes although ×0.9 (4410) is blocked
  });
  it('is the largest grid value the rule allows, for many sizes', () => {
    for (let w = 300; w <= 3000; w += 137) {
      for (let h = 300; h <= 3000; h += 211) {
        const max = maxScaleFactor(w, h);
        expect(isUpscaleBlocked(w, h, max), `${w}×${h}`).toBe(false);
        expect(grid.filter((f) => f > max).every((f) => isUpscaleBlocked(w, h, f)), `${w}×${h}`).toBe(true);
      }
    }
  });
  it('uses the slider’s range', () => {
    expect(SCALE_FACTOR.min).toBe(0.1);
    expect(SCALE_FACTOR.max).toBe(2);
  });
});
