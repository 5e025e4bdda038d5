import { NOTICES } from '@dewy/contracts';

/**
 * The notice list's numbering and pager (spec 002 §2: 10 per page; pinned notices show a pin mark
 * instead of a number; previous/next disabled at the ends; the page lives in `?page=`).
 */

/** `?page=` as a page number: a whole number ≥ 1, else 1. */
export function parsePageParam(raw: string | null | undefined): number {
  if (!raw || !/^\d{1,6}$/.test(raw.trim())) return 1;
  const n = Number(raw.trim());
  return n >= 1 ? n : 1;
}

/**
 * The number shown in the No column for the row at `index` (0-based) of `page`: `(page − 1) × 10 +
 * index + 1`; null for a pinned notice (it shows the pin mark instead).
 */
export function noticeNumber(page: number, index: number, pinned: boolean, pageSize: number = NOTICES.pageSize): number | null {
  if (pinned) return null;
  return (Math.max(1, page) - 1) * pageSize + index + 1;
}

export interface PagerState {
  /** The page the previous button goes to; null when it is disabled (first page). */
  prev: number | null;
  /** The page the next button goes to; null when it is disabled (last page). */
  next: number | null;
  /** The pages to offer as numbered buttons (a window of at most `span` around the current one). */
  pages: number[];
}

/** The pager for `page` of `totalPages` (≥ 1): previous/next targets, disabled at the ends, and a window of page numbers. */
export function pagerState(page: number, totalPages: number, span = 5): PagerState {
  const total = Math.max(1, Math.floor(totalPages));
  const asked = Math.max(1, Math.floor(page));
  const current = Math.min(asked, total);
  const half = Math.floor(span / 2);
  let start = Math.max(1, current - half);
  const end = Math.min(total, start + span - 1);
  start = Math.max(1, end - span + 1);
  const pages: number[] = [];
  for (let p = start; p <= end; p += 1) pages.push(p);
  // Past the end (?page=99 of 3), previous leads back to the last page.
  return { prev: asked > 1 ? Math.min(asked - 1, total) : null, next: asked < total ? asked + 1 : null, pages };
}
