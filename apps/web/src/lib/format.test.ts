import { describe, expect, it } from 'vitest';
import { formatNumber, formatSeoulDate, formatSeoulDateTime, formatSignedNumber, formatSignedPrice } from './format';

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
  it('groups numbers', () => {
    expect(formatNumber(14500, 'ko')).toBe('14,500');
    expect(formatNumber(14500, 'en')).toBe('14,500');
  });
  it('prints prices in minor units, money given back with a true minus', () => {
    expect(formatSignedPrice(900, 'usd', 'en')).toBe('$9');
    expect(formatSignedPrice(950, 'usd', 'ko')).toBe('$9.50');
    expect(formatSignedPrice(12_600, 'krw', 'ko')).toBe('₩12,600');
    expect(formatSignedPrice(-12_600, 'krw', 'ko')).toBe('\u2212₩12,600');
    expect(formatSignedPrice(-500, 'usd', 'en')).toBe('\u2212$5');
  });
  it('shows date and time in Asia/Seoul with the zone named', () => {
    expect(formatSeoulDateTime('2026-11-23T15:30:00Z', 'ko')).toBe('2026년 11월 24일 00:30 KST');
    expect(formatSeoulDateTime('2026-11-23T15:30:00Z', 'en')).toBe('Nov 24, 2026, 00:30 KST');
    expect(formatSeoulDateTime('nope', 'en')).toBe('');
  });
  it('signs numbers with a true minus', () => {
    expect(formatSignedNumber(1500, 'en')).toBe('+1,500');
    expect(formatSignedNumber(-80, 'ko')).toBe('\u221280');
    expect(formatSignedNumber(0, 'ko')).toBe('0');
  });
});
