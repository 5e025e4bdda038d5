import { formatPrice, type Currency } from '@dewy/contracts';
import type { Locale } from './locale-path';

/** Dates on the account pages are shown in Korean time (001 §2: the Asia/Seoul timezone). */
export const DISPLAY_TIME_ZONE = 'Asia/Seoul';

function intlLocale(locale: Locale): string {
  return locale === 'en' ? 'en-US' : 'ko-KR';
}

/** An ISO date as a calendar day in Asia/Seoul ('2026년 12월 24일' / 'December 24, 2026'); '' when invalid. */
export function formatSeoulDate(iso: string, locale: Locale): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '';
  return new Intl.DateTimeFormat(intlLocale(locale), { timeZone: DISPLAY_TIME_ZONE, year: 'numeric', month: 'long', day: 'numeric' }).format(t);
}

/** A whole number with the language's grouping ('14,500'). */
export function formatNumber(n: number, locale: Locale): string {
  return new Intl.NumberFormat(intlLocale(locale)).format(n);
}

/**
 * A price in minor units with a true minus when it is negative (money given back: '−₩12,600', '−$9');
 * else as contracts' formatPrice writes it ('₩12,600', '$9.50').
 */
export function formatSignedPrice(amountMinor: number, currency: Currency, locale: Locale): string {
  return amountMinor < 0 ? `\u2212${formatPrice(-amountMinor, currency, locale)}` : formatPrice(amountMinor, currency, locale);
}

/**
 * An ISO instant as date and 24-hour time in Asia/Seoul with the zone named ('2026년 5월 3일 15:04 KST' /
 * 'May 3, 2026, 15:04 KST'); '' when invalid. Korea keeps no daylight saving time, so KST is exact.
 */
export function formatSeoulDateTime(iso: string, locale: Locale): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '';
  const text = new Intl.DateTimeFormat(intlLocale(locale), {
    timeZone: DISPLAY_TIME_ZONE,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(t);
  return `${text} KST`;
}

/** A signed whole number ('+1,500', '−80', '0'), with a true minus sign. */
export function formatSignedNumber(n: number, locale: Locale): string {
  if (n === 0) return '0';
  return `${n > 0 ? '+' : '−'}${formatNumber(Math.abs(n), locale)}`;
}
