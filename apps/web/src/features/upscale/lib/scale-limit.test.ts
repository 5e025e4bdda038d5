import { describe, expect, it } from 'vitest';
import { scaleLimitFor } from './scale-limit';

describe('scale limit shown on the slider (001 §5 blocking rule)', () => {
  it('marks ×1.9 for 1024×1024 and explains ×2 before the click', () => {
    expect(scaleLimitFor({ width: 1024, height: 1024 }, 1)).toEqual({ max: 1.9, limited: true, blocked: false, width: 1024, height: 1024 });
    expect(scaleLimitFor({ width: 1024, height: 1024 }, 2)).toMatchObject({ max: 1.9, blocked: true, width: 2048, height: 2048 });
  });
  it('draws no marker when ×2 is allowed, and nothing without a photo', () => {
    expect(scaleLimitFor({ width: 800, height: 600 }, 2)).toMatchObject({ max: 2, limited: false, blocked: false });
    expect(scaleLimitFor(null, 1)).toBeNull();
  });
  it('matches the e2e case: 1434×2333 goes up to ×1.0, ×1.1 is blocked', () => {
    expect(scaleLimitFor({ width: 1434, height: 2333 }, 1.1)).toMatchObject({ max: 1, limited: true, blocked: true, width: 1577, height: 2566 });
  });
});
