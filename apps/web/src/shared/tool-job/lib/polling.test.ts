import { describe, expect, it } from 'vitest';
import { pollDelayMs, pollTimedOut } from './polling';

describe('upscale polling schedule (001 §4)', () => {
  it('waits 2, 4, 8 s, then 10–15 s', () => {
    expect([0, 1, 2].map((a) => pollDelayMs(a))).toEqual([2000, 4000, 8000]);
    expect(pollDelayMs(3, 0)).toBe(10_000);
    expect(pollDelayMs(9, 0.9999)).toBeLessThan(15_000);
    expect(pollDelayMs(9, 0.9999)).toBeGreaterThanOrEqual(10_000);
  });
  it('times out after 10 minutes', () => {
    expect(pollTimedOut(0, 599_999)).toBe(false);
    expect(pollTimedOut(0, 600_000)).toBe(true);
  });
});
