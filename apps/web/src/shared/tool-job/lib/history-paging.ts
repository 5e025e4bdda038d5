import type { HistoryResponse } from '@dewy/contracts';

/** Page sizes of a paged history list (001 §7, face edit: 10 first, 15 on reload). */
export interface HistoryPaging {
  /** Items of the first load. */
  first: number;
  /** Items of a reload of the first page (after a job, on refocus). */
  reload: number;
  /** Items added by each "load more". */
  more: number;
}

/**
 * Limit of a request for the list's first page: `first` on the first load; on a reload `reload`, or as
 * many as are already shown when that is more (a reload never takes away what "load more" brought).
 * @param shown items on screen now, or null before the first load
 */
export function firstPageLimit(paging: HistoryPaging, shown: number | null): number {
  return shown === null ? paging.first : Math.max(paging.reload, shown);
}

/**
 * The list after "load more": the next page appended, items already listed (an item that moved down
 * because a new one arrived on top) not repeated; the pagination is the new page's.
 */
export function mergeHistoryPage(current: HistoryResponse, next: HistoryResponse): HistoryResponse {
  const seen = new Set(current.images.map((i) => i.id));
  return { images: [...current.images, ...next.images.filter((i) => !seen.has(i.id))], pagination: next.pagination };
}
