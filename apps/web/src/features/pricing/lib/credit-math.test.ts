import { describe, expect, it } from 'vitest';
import { approxImages, upgradeCreditDifference } from './credit-math';

describe('pricing credit figures', () => {
  it('photos per plan span 100 to 80 credits per photo', () => {
    expect(approxImages(4500)).toEqual({ min: 45, max: 56 });
    expect(approxImages(14500)).toEqual({ min: 145, max: 181 });
  });
  it('an upgrade grants the monthly credit difference, a downgrade nothing', () => {
    expect(upgradeCreditDifference('basic', 'deluxe')).toBe(5000);
    expect(upgradeCreditDifference('basic', 'premium')).toBe(10000);
    expect(upgradeCreditDifference('premium', 'basic')).toBe(0);
  });
});
