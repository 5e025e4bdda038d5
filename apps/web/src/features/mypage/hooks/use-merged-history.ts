import type { HistoryImage, HistorySource } from '@dewy/contracts';
import { useCallback, useEffect, useState } from 'react';
import { fetchCompletedHistoryPage } from '../api/history-page';
import { HISTORY_PAGE, emptyCursor, pageSizeFor, sourcesToFetch, visibleHistory, withPage, type SourceCursor } from '../lib/history-merge';

export interface MergedHistory {
  items: HistoryImage[];
  /** No page has arrived yet (first load). */
  loading: boolean;
  /** A "load more" is running. */
  loadingMore: boolean;
  canLoadMore: boolean;
  loadMore: () => void;
  /**
   * Drops deleted items from the list at once (issue 28, point 12); each source's next offset moves back
   * by the items it lost, so the next page neither skips nor repeats one.
   */
  remove: (ids: readonly number[]) => void;
}

interface State {
  /** The user and sources the cursors belong to. */
  key: string;
  cursors: SourceCursor[];
  target: number;
  phase: 'idle' | 'loading' | 'ready';
}

function freshState(key: string, sources: readonly HistorySource[]): State {
  return { key, cursors: sources.map(emptyCursor), target: HISTORY_PAGE.first, phase: 'idle' };
}

/**
 * A history tab's completed items (001 §2/§7/§8): the tab's sources paged and merged newest first, 25
 * first and 5 more per `loadMore`. Nothing is asked until `active` (the tab is first shown). A failing
 * call ends in an empty list, as the spec wants for My Page, not in an error.
 */
export function useMergedHistory(userId: number | undefined, sources: readonly HistorySource[], active: boolean): MergedHistory {
  const key = `${userId ?? ''}|${sources.join(',')}`;
  const [state, setState] = useState<State>(() => freshState(key, sources));
  // Another user or other sources: start over (state adjusted while rendering, React's pattern for it).
  const current = state.key === key ? state : freshState(key, sources);
  if (current !== state) setState(current);

  const fill = useCallback(
    async (start: SourceCursor[], target: number) => {
      if (userId === undefined) return;
      setState((s) => (s.key === key ? { ...s, target, phase: 'loading' } : s));
      let cursors = start;
      try {
        for (let round = 0; round < 50; round++) {
          const ask = sourcesToFetch(cursors, target);
          if (!ask.length) break;
          const pages = await Promise.all(ask.map((c) => fetchCompletedHistoryPage(userId, c.source, pageSizeFor(c), c.nextOffset)));
          cursors = cursors.map((c) => {
            const i = ask.indexOf(c);
            return i === -1 ? c : withPage(c, pages[i]!);
          });
        }
      } catch (err) {
        console.warn('[mypage] history load failed', err);
        // 001 §8: a My Page history failure is an empty list.
        cursors = cursors.map((c) => ({ ...c, items: [], hasMore: false, loaded: true }));
      }
      // A user or source change meanwhile makes this answer stale.
      setState((s) => (s.key === key ? { key, cursors, target, phase: 'ready' } : s));
    },
    [userId, key],
  );

  useEffect(() => {
    if (active && userId !== undefined && current.phase === 'idle') void fill(current.cursors, HISTORY_PAGE.first);
  }, [active, userId, current.phase, current.cursors, fill]);

  const view = visibleHistory(current.cursors, current.target);
  const loadMore = useCallback(() => {
    if (current.phase !== 'ready') return;
    void fill(current.cursors, current.target + HISTORY_PAGE.more);
  }, [current, fill]);

  const remove = useCallback(
    (ids: readonly number[]) => {
      const gone = new Set(ids);
      setState((s) =>
        s.key !== key
          ? s
          : {
              ...s,
              cursors: s.cursors.map((c) => {
                const items = c.items.filter((i) => !gone.has(i.id));
                return { ...c, items, nextOffset: Math.max(0, c.nextOffset - (c.items.length - items.length)) };
              }),
            },
      );
    },
    [key],
  );

  const firstLoad = current.phase !== 'ready' && !current.cursors.some((c) => c.loaded);
  return {
    items: view.items,
    loading: firstLoad,
    loadingMore: current.phase === 'loading' && !firstLoad,
    canLoadMore: current.phase === 'ready' && view.canLoadMore,
    loadMore,
    remove,
  };
}
