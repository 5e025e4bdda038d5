import { describe, expect, it } from 'vitest';
import { noticeNumber, pagerState, parsePageParam } from './paging';

describe('notice numbering (10 per page, pinned show a pin)', () => {
  it('numbers rows from the page: (page − 1) × 10 + index + 1', () => {
    expect(noticeNumber(1, 0, false)).toBe(1);
    expect(noticeNumber(1, 9, false)).toBe(10);
    expect(noticeNumber(2, 0, false)).toBe(11);
    expect(noticeNumber(3, 4, false)).toBe(25);
  });

  it('gives a pinned notice no number (the pin mark stands in its place), and the rows after it keep their place', () => {
    expect(noticeNumber(1, 0, true)).toBeNull();
    expect(noticeNumber(1, 1, false)).toBe(2);
  });

  it('treats a page below 1 as the first page', () => {
    expect(noticeNumber(0, 0, false)).toBe(1);
  });
});

describe('?page= parameter', () => {
  it('reads whole numbers from 1 up, anything else is page 1', () => {
    expect(parsePageParam('3')).toBe(3);
    expect(parsePageParam(' 2 ')).toBe(2);
    for (const bad of [null, undefined, '', '0', '-1', '1.5', 'abc', '2e3', '9999999']) expect(parsePageParam(bad), String(bad)).toBe(1);
  });
});

describe('pager', () => {
  it('disables previous on the first page and next on the last', () => {
    expect(pagerState(1, 3)).toMatchObject({ prev: null, next: 2 });
    expect(pagerState(2, 3)).toMatchObject({ prev: 1, next: 3 });
    expect(pagerState(3, 3)).toMatchObject({ prev: 2, next: null });
  });

  it('disables both on a single (or empty) page', () => {
    expect(pagerState(1, 1)).toEqual({ prev: null, next: null, pages: [1] });
    expect(pagerState(1, 0)).toEqual({ prev: null, next: null, pages: [1] });
  });

  it('shows a window of at most 5 page numbers around the current page', () => {
    expect(pagerState(1, 12).pages).toEqual([1, 2, 3, 4, 5]);
    expect(pagerState(6, 12).pages).toEqual([4, 5, 6, 7, 8]);
    expect(pagerState(12, 12).pages).toEqual([8, 9, 10, 11, 12]);
  });

  it('past the end, previous leads back to the last page and next is disabled', () => {
    expect(pagerState(99, 3)).toEqual({ prev: 3, next: null, pages: [1, 2, 3] });
  });
});
