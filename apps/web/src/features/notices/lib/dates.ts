import type { Locale } from '@dewy/contracts';
import { DISPLAY_TIME_ZONE } from '../../../lib/format';

/** A notice's date for the list: the calendar day in Asia/Seoul as 2026.01.05 (both languages); '' when invalid. */
export function formatNoticeDay(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '';
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: DISPLAY_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(t);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}.${get('month')}.${get('day')}`;
}

/** A notice's date and time for the detail, in Asia/Seoul with the zone named ('2026년 1월 5일 오후 2:03 KST' / 'January 5, 2026, 2:03 PM KST'). */
export function formatNoticeDateTime(iso: string, locale: Locale): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '';
  return `${new Intl.DateTimeFormat(locale === 'en' ? 'en-US' : 'ko-KR', {
    timeZone: DISPLAY_TIME_ZONE,
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(t)} KST`;
}
