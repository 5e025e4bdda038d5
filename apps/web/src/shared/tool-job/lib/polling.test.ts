import { describe, expect, it } from 'vitest';
import { FACE_EDIT_POLLING_SCHEDULE, faceEditPollDelayMs, faceEditPollTimedOut, pollDelayMs, pollTimedOut } from './polling';

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

describe('face-edit polling schedule (001 §4)', () => {
  it('waits 1 s, then 2 s growing ×1.25 per poll up to 10 s', () => {
    expect([0, 1, 2, 3, 4].map(faceEditPollDelayMs)).toEqual([1000, 2000, 2500, 3125, 3906]);
    expect(faceEditPollDelayMs(8)).toBe(9537);
    expect(faceEditPollDelayMs(9)).toBe(10_000);
    expect(faceEditPollDelayMs(119)).toBe(10_000);
  });
  it('allows 120 polls, then times out', () => {
    expect(faceEditPollTimedOut(120)).toBe(false);
    expect(faceEditPollTimedOut(121)).toBe(true);
    expect(FACE_EDIT_POLLING_SCHEDULE.timedOut(0, Number.MAX_SAFE_INTEGER, 1)).toBe(false);
  });
});
