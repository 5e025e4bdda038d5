import { describe, expect, it } from 'vitest';
import { formatNumber, formatSeoulDate, formatUsd } from './format';

describe('display formats', () => {
  it('shows dates as the calendar day in Asia/Seoul', () => {
    // 15:30 UTC on 23 Nov is already 24 Nov in Seoul (UTC+9).
    expect(formatSeoulDate('2026-11-23T15:30:00Z', 'ko')).toBe('2026년 11월 24일');
    expect(formatSeoulDate('2026-11-23T15:30:00Z', 'en')).toBe('November 24, 2026');
    expect(formatSeoulDate('2026-11-23T14:59:00Z', 'en')).toBe('November 23, 2026');
  });
  it('gives an empty string for an unreadable date', () => {
    expect(formatSeoulDate('not a date', 'ko')).toBe('');
  });
  it('groups numbers and prints USD prices', () => {
    expect(formatNumber(14500, 'ko')).toBe('14,500');
    expect(formatNumber(14500, 'en')).toBe('14,500');
    expect(formatUsd(9)).toBe('$9');
    expect(formatUsd(9.5)).toBe('$9.50');
  });
});
