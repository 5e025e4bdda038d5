import type { HistoryImage, HistorySource } from '@dewy/contracts';

/**
 * Paging of My Page's history tabs (001 §7: 25 items first, then 5 per "load more"). A tab may read
 * more than one `source` (Generate: kling and consistency); each source is paged on its own and the
 * tab shows them merged newest first. An item is shown only when no source that still has more could
 * hold a newer one, so the list never reorders as pages arrive. Pure, for unit tests.
 */

/** Page sizes of My Page's history (001 §7). */
export const HISTORY_PAGE = { first: 25, more: 5 } as const;

/** One source's pages so far. `loaded: false` until its first page arrived. */
export interface SourceCursor {
  source: HistorySource;
  items: HistoryImage[];
  nextOffset: number;
  hasMore: boolean;
  loaded: boolean;
}

/** A source before its first page. */
export function emptyCursor(source: HistorySource): SourceCursor {
  return { source, items: [], nextOffset: 0, hasMore: true, loaded: false };
}

/** Newest first: `created_at` descending, then `id` descending (the server's order). */
export function compareNewestFirst(a: HistoryImage, b: HistoryImage): number {
  const ta = Date.parse(a.created_at);
  const tb = Date.parse(b.created_at);
  if (ta !== tb) return tb - ta;
  return b.id - a.id;
}

/** The oldest item a source has delivered, or null before its first page. */
function frontier(c: SourceCursor): HistoryImage | null {
  return c.items.length ? c.items[c.items.length - 1]! : null;
}

/**
 * The items whose place is certain: every delivered item not older than the frontier of any source
 * that still has more, merged newest first, each id once.
 */
export function settledItems(cursors: readonly SourceCursor[]): HistoryImage[] {
  const open = cursors.filter((c) => c.hasMore);
  if (open.some((c) => !c.loaded)) return [];
  const limits = open.map(frontier).filter((f): f is HistoryImage => f !== null);
  const seen = new Set<number>();
  const all = cursors.flatMap((c) => c.items).sort(compareNewestFirst);
  const out: HistoryImage[] = [];
  for (const item of all) {
    if (seen.has(item.id)) continue;
    // Older than some open source's frontier: that source may still hold newer items than this one.
    if (limits.some((f) => compareNewestFirst(item, f) > 0)) break;
    seen.add(item.id);
    out.push(item);
  }
  return out;
}

/**
 * The sources to ask next so that `target` items can be shown: none when enough items are settled or
 * nothing is left; otherwise every source not loaded yet, else the open sources whose frontier holds
 * the rest back (the newest frontier).
 */
export function sourcesToFetch(cursors: readonly SourceCursor[], target: number): SourceCursor[] {
  const open = cursors.filter((c) => c.hasMore);
  if (open.length === 0) return [];
  if (settledItems(cursors).length >= target) return [];
  const unloaded = open.filter((c) => !c.loaded);
  if (unloaded.length) return unloaded;
  let newest: HistoryImage | null = null;
  for (const c of open) {
    const f = frontier(c);
    if (f && (!newest || compareNewestFirst(f, newest) < 0)) newest = f;
  }
  return open.filter((c) => {
    const f = frontier(c);
    return !f || !newest || compareNewestFirst(f, newest) === 0;
  });
}

/** How many items to ask of a source: the first page, then the "load more" size. */
export function pageSizeFor(cursor: SourceCursor): number {
  return cursor.loaded ? HISTORY_PAGE.more : HISTORY_PAGE.first;
}

/** A source's cursor after a page arrived. An empty page closes the source whatever it claims. */
export function withPage(cursor: SourceCursor, page: { images: HistoryImage[]; pagination: { hasMore: boolean; nextOffset: number | null } }): SourceCursor {
  const known = new Set(cursor.items.map((i) => i.id));
  const fresh = page.images.filter((i) => !known.has(i.id));
  return {
    source: cursor.source,
    items: [...cursor.items, ...fresh],
    nextOffset: page.pagination.nextOffset ?? cursor.nextOffset + page.images.length,
    hasMore: page.pagination.hasMore && page.images.length > 0,
    loaded: true,
  };
}

/** What a tab shows: the first `target` settled items, and whether "load more" has anything to bring. */
export function visibleHistory(cursors: readonly SourceCursor[], target: number): { items: HistoryImage[]; canLoadMore: boolean } {
  const settled = settledItems(cursors);
  return { items: settled.slice(0, target), canLoadMore: settled.length > target || cursors.some((c) => c.hasMore) };
}
